// Original file: proto/collections.proto

export const CompressionRatio = {
  x4: 'x4',
  x8: 'x8',
  x16: 'x16',
  x32: 'x32',
  x64: 'x64',
} as const;

export type CompressionRatio =
  | 'x4'
  | 0
  | 'x8'
  | 1
  | 'x16'
  | 2
  | 'x32'
  | 3
  | 'x64'
  | 4

export type CompressionRatio__Output = typeof CompressionRatio[keyof typeof CompressionRatio]
