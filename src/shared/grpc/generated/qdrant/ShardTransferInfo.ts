// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface ShardTransferInfo {
  'shard_id'?: (number);
  'from'?: (number | string | Long);
  'to'?: (number | string | Long);
  'sync'?: (boolean);
  'to_shard_id'?: (number);
  '_to_shard_id'?: "to_shard_id";
}

export interface ShardTransferInfo__Output {
  'shard_id'?: (number);
  'from'?: (string);
  'to'?: (string);
  'sync'?: (boolean);
  'to_shard_id'?: (number);
  '_to_shard_id'?: "to_shard_id";
}
