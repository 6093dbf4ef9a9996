// Original file: proto/collections.proto

export const TurboQuantBitSize = {
  Bits1: 'Bits1',
  Bits1_5: 'Bits1_5',
  Bits2: 'Bits2',
  Bits4: 'Bits4',
} as const;

export type TurboQuantBitSize =
  | 'Bits1'
  | 0
  | 'Bits1_5'
  | 1
  | 'Bits2'
  | 2
  | 'Bits4'
  | 3

export type TurboQuantBitSize__Output = typeof TurboQuantBitSize[keyof typeof TurboQuantBitSize]
