// Original file: proto/collections.proto

import type { MoveShard as _qdrant_MoveShard, MoveShard__Output as _qdrant_MoveShard__Output } from '../qdrant/MoveShard.js';
import type { ReplicateShard as _qdrant_ReplicateShard, ReplicateShard__Output as _qdrant_ReplicateShard__Output } from '../qdrant/ReplicateShard.js';
import type { AbortShardTransfer as _qdrant_AbortShardTransfer, AbortShardTransfer__Output as _qdrant_AbortShardTransfer__Output } from '../qdrant/AbortShardTransfer.js';
import type { Replica as _qdrant_Replica, Replica__Output as _qdrant_Replica__Output } from '../qdrant/Replica.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateCollectionClusterSetupRequest {
  'collection_name'?: (string);
  'move_shard'?: (_qdrant_MoveShard | null);
  'replicate_shard'?: (_qdrant_ReplicateShard | null);
  'abort_transfer'?: (_qdrant_AbortShardTransfer | null);
  'drop_replica'?: (_qdrant_Replica | null);
  'timeout'?: (number | string | Long);
  'operation'?: "move_shard"|"replicate_shard"|"abort_transfer"|"drop_replica";
  '_timeout'?: "timeout";
}

export interface UpdateCollectionClusterSetupRequest__Output {
  'collection_name'?: (string);
  'move_shard'?: (_qdrant_MoveShard__Output);
  'replicate_shard'?: (_qdrant_ReplicateShard__Output);
  'abort_transfer'?: (_qdrant_AbortShardTransfer__Output);
  'drop_replica'?: (_qdrant_Replica__Output);
  'timeout'?: (string);
  'operation'?: "move_shard"|"replicate_shard"|"abort_transfer"|"drop_replica";
  '_timeout'?: "timeout";
}
