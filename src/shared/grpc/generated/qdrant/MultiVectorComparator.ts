// Original file: proto/collections.proto

export const MultiVectorComparator = {
  MaxSim: 'MaxSim',
} as const;

export type MultiVectorComparator =
  | 'MaxSim'
  | 0

export type MultiVectorComparator__Output = typeof MultiVectorComparator[keyof typeof MultiVectorComparator]
