// Original file: proto/collections.proto

export const BinaryQuantizationEncoding = {
  OneBit: 'OneBit',
  TwoBits: 'TwoBits',
  OneAndHalfBits: 'OneAndHalfBits',
} as const;

export type BinaryQuantizationEncoding =
  | 'OneBit'
  | 0
  | 'TwoBits'
  | 1
  | 'OneAndHalfBits'
  | 2

export type BinaryQuantizationEncoding__Output = typeof BinaryQuantizationEncoding[keyof typeof BinaryQuantizationEncoding]
