// Original file: proto/points.proto

export const UpdateMode = {
  Upsert: 'Upsert',
  InsertOnly: 'InsertOnly',
  UpdateOnly: 'UpdateOnly',
} as const;

export type UpdateMode =
  | 'Upsert'
  | 0
  | 'InsertOnly'
  | 1
  | 'UpdateOnly'
  | 2

export type UpdateMode__Output = typeof UpdateMode[keyof typeof UpdateMode]
