// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface AbortShardTransfer {
  'shard_id'?: (number);
  'from_peer_id'?: (number | string | Long);
  'to_peer_id'?: (number | string | Long);
  'to_shard_id'?: (number);
  '_to_shard_id'?: "to_shard_id";
}

export interface AbortShardTransfer__Output {
  'shard_id'?: (number);
  'from_peer_id'?: (string);
  'to_peer_id'?: (string);
  'to_shard_id'?: (number);
  '_to_shard_id'?: "to_shard_id";
}
