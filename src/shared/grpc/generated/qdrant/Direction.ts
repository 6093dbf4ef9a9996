// Original file: proto/points.proto

export const Direction = {
  Asc: 'Asc',
  Desc: 'Desc',
} as const;

export type Direction =
  | 'Asc'
  | 0
  | 'Desc'
  | 1

export type Direction__Output = typeof Direction[keyof typeof Direction]
