// Original file: proto/collections.proto

import type { ShardTransferMethod as _qdrant_ShardTransferMethod, ShardTransferMethod__Output as _qdrant_ShardTransferMethod__Output } from '../qdrant/ShardTransferMethod.js';
import type { Long } from '@grpc/proto-loader';

export interface ReplicateShard {
  'shard_id'?: (number);
  'from_peer_id'?: (number | string | Long);
  'to_peer_id'?: (number | string | Long);
  'method'?: (_qdrant_ShardTransferMethod);
  'to_shard_id'?: (number);
  '_to_shard_id'?: "to_shard_id";
  '_method'?: "method";
}

export interface ReplicateShard__Output {
  'shard_id'?: (number);
  'from_peer_id'?: (string);
  'to_peer_id'?: (string);
  'method'?: (_qdrant_ShardTransferMethod__Output);
  'to_shard_id'?: (number);
  '_to_shard_id'?: "to_shard_id";
  '_method'?: "method";
}
