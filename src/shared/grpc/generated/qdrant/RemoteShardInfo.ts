// Original file: proto/collections.proto

import type { ReplicaState as _qdrant_ReplicaState, ReplicaState__Output as _qdrant_ReplicaState__Output } from '../qdrant/ReplicaState.js';
import type { ShardKey as _qdrant_ShardKey, ShardKey__Output as _qdrant_ShardKey__Output } from '../qdrant/ShardKey.js';
import type { Long } from '@grpc/proto-loader';

export interface RemoteShardInfo {
  'shard_id'?: (number);
  'peer_id'?: (number | string | Long);
  'state'?: (_qdrant_ReplicaState);
  'shard_key'?: (_qdrant_ShardKey | null);
  '_shard_key'?: "shard_key";
}

export interface RemoteShardInfo__Output {
  'shard_id'?: (number);
  'peer_id'?: (string);
  'state'?: (_qdrant_ReplicaState__Output);
  'shard_key'?: (_qdrant_ShardKey__Output);
  '_shard_key'?: "shard_key";
}
