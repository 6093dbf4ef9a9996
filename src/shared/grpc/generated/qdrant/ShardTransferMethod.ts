// Original file: proto/collections.proto

export const ShardTransferMethod = {
  StreamRecords: 'StreamRecords',
  Snapshot: 'Snapshot',
  WalDelta: 'WalDelta',
  ReshardingStreamRecords: 'ReshardingStreamRecords',
} as const;

export type ShardTransferMethod =
  | 'StreamRecords'
  | 0
  | 'Snapshot'
  | 1
  | 'WalDelta'
  | 2
  | 'ReshardingStreamRecords'
  | 3

export type ShardTransferMethod__Output = typeof ShardTransferMethod[keyof typeof ShardTransferMethod]
