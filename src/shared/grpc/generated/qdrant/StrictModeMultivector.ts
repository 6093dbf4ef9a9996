// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface StrictModeMultivector {
  'max_vectors'?: (number | string | Long);
  '_max_vectors'?: "max_vectors";
}

export interface StrictModeMultivector__Output {
  'max_vectors'?: (string);
  '_max_vectors'?: "max_vectors";
}
