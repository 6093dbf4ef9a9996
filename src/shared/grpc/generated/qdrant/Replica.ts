// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface Replica {
  'shard_id'?: (number);
  'peer_id'?: (number | string | Long);
}

export interface Replica__Output {
  'shard_id'?: (number);
  'peer_id'?: (string);
}
