// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface DeleteCollection {
  'collection_name'?: (string);
  'timeout'?: (number | string | Long);
  '_timeout'?: "timeout";
}

export interface DeleteCollection__Output {
  'collection_name'?: (string);
  'timeout'?: (string);
  '_timeout'?: "timeout";
}
