// Original file: proto/points.proto

export const Sample = {
  Random: 'Random',
} as const;

export type Sample =
  | 'Random'
  | 0

export type Sample__Output = typeof Sample[keyof typeof Sample]
