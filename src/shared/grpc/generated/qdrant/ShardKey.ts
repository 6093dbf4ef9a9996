// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface ShardKey {
  'keyword'?: (string);
  'number'?: (number | string | Long);
  'key'?: "keyword"|"number";
}

export interface ShardKey__Output {
  'keyword'?: (string);
  'number'?: (string);
  'key'?: "keyword"|"number";
}
