// Original file: proto/collections.proto


// Original file: proto/collections.proto

export const _qdrant_BinaryQuantizationQueryEncoding_Setting = {
  Default: 'Default',
  Binary: 'Binary',
  Scalar4Bits: 'Scalar4Bits',
  Scalar8Bits: 'Scalar8Bits',
} as const;

export type _qdrant_BinaryQuantizationQueryEncoding_Setting =
  | 'Default'
  | 0
  | 'Binary'
  | 1
  | 'Scalar4Bits'
  | 2
  | 'Scalar8Bits'
  | 3

export type _qdrant_BinaryQuantizationQueryEncoding_Setting__Output = typeof _qdrant_BinaryQuantizationQueryEncoding_Setting[keyof typeof _qdrant_BinaryQuantizationQueryEncoding_Setting]

export interface BinaryQuantizationQueryEncoding {
  'setting'?: (_qdrant_BinaryQuantizationQueryEncoding_Setting);
  'variant'?: "setting";
}

export interface BinaryQuantizationQueryEncoding__Output {
  'setting'?: (_qdrant_BinaryQuantizationQueryEncoding_Setting__Output);
  'variant'?: "setting";
}
