// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface StrictModeSparse {
  'max_length'?: (number | string | Long);
  '_max_length'?: "max_length";
}

export interface StrictModeSparse__Output {
  'max_length'?: (string);
  '_max_length'?: "max_length";
}
