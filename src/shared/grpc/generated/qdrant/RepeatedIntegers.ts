// Original file: proto/qdrant_common.proto

import type { Long } from '@grpc/proto-loader';

export interface RepeatedIntegers {
  'integers'?: (number | string | Long)[];
}

export interface RepeatedIntegers__Output {
  'integers': (string)[];
}
