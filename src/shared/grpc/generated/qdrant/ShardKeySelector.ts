// Original file: proto/points.proto

import type { ShardKey as _qdrant_ShardKey, ShardKey__Output as _qdrant_ShardKey__Output } from '../qdrant/ShardKey.js';

export interface ShardKeySelector {
  'shard_keys'?: (_qdrant_ShardKey)[];
  'fallback'?: (_qdrant_ShardKey | null);
  '_fallback'?: "fallback";
}

export interface ShardKeySelector__Output {
  'shard_keys': (_qdrant_ShardKey__Output)[];
  'fallback'?: (_qdrant_ShardKey__Output);
  '_fallback'?: "fallback";
}
