// Original file: proto/collections.proto

export const Modifier = {
  None: 'None',
  Idf: 'Idf',
} as const;

export type Modifier =
  | 'None'
  | 0
  | 'Idf'
  | 1

export type Modifier__Output = typeof Modifier[keyof typeof Modifier]
