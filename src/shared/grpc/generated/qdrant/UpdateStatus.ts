// Original file: proto/points.proto

export const UpdateStatus = {
  UnknownUpdateStatus: 'UnknownUpdateStatus',
  Acknowledged: 'Acknowledged',
  Completed: 'Completed',
  ClockRejected: 'ClockRejected',
  WaitTimeout: 'WaitTimeout',
} as const;

export type UpdateStatus =
  | 'UnknownUpdateStatus'
  | 0
  | 'Acknowledged'
  | 1
  | 'Completed'
  | 2
  | 'ClockRejected'
  | 3
  | 'WaitTimeout'
  | 4

export type UpdateStatus__Output = typeof UpdateStatus[keyof typeof UpdateStatus]
