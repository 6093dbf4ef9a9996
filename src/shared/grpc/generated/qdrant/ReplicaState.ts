// Original file: proto/collections.proto

export const ReplicaState = {
  Active: 'Active',
  Dead: 'Dead',
  Partial: 'Partial',
  Initializing: 'Initializing',
  Listener: 'Listener',
  PartialSnapshot: 'PartialSnapshot',
  Recovery: 'Recovery',
  Resharding: 'Resharding',
  ReshardingScaleDown: 'ReshardingScaleDown',
  ActiveRead: 'ActiveRead',
  ManualRecovery: 'ManualRecovery',
} as const;

export type ReplicaState =
  | 'Active'
  | 0
  | 'Dead'
  | 1
  | 'Partial'
  | 2
  | 'Initializing'
  | 3
  | 'Listener'
  | 4
  | 'PartialSnapshot'
  | 5
  | 'Recovery'
  | 6
  | 'Resharding'
  | 7
  | 'ReshardingScaleDown'
  | 8
  | 'ActiveRead'
  | 9
  | 'ManualRecovery'
  | 10

export type ReplicaState__Output = typeof ReplicaState[keyof typeof ReplicaState]
