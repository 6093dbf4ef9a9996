// Original file: proto/points.proto

export const Fusion = {
  RRF: 'RRF',
  DBSF: 'DBSF',
} as const;

export type Fusion =
  | 'RRF'
  | 0
  | 'DBSF'
  | 1

export type Fusion__Output = typeof Fusion[keyof typeof Fusion]
