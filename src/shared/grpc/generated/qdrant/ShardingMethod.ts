// Original file: proto/collections.proto

export const ShardingMethod = {
  Auto: 'Auto',
  Custom: 'Custom',
} as const;

export type ShardingMethod =
  | 'Auto'
  | 0
  | 'Custom'
  | 1

export type ShardingMethod__Output = typeof ShardingMethod[keyof typeof ShardingMethod]
