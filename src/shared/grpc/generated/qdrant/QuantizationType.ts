// Original file: proto/collections.proto

export const QuantizationType = {
  UnknownQuantization: 'UnknownQuantization',
  Int8: 'Int8',
} as const;

export type QuantizationType =
  | 'UnknownQuantization'
  | 0
  | 'Int8'
  | 1

export type QuantizationType__Output = typeof QuantizationType[keyof typeof QuantizationType]
