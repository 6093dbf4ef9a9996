// Original file: proto/collections.proto

export const Datatype = {
  Default: 'Default',
  Float32: 'Float32',
  Uint8: 'Uint8',
  Float16: 'Float16',
} as const;

export type Datatype =
  | 'Default'
  | 0
  | 'Float32'
  | 1
  | 'Uint8'
  | 2
  | 'Float16'
  | 3

export type Datatype__Output = typeof Datatype[keyof typeof Datatype]
