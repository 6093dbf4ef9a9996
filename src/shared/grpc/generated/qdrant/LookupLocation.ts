// Original file: proto/points.proto

import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';

export interface LookupLocation {
  'collection_name'?: (string);
  'vector_name'?: (string);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  '_vector_name'?: "vector_name";
  '_shard_key_selector'?: "shard_key_selector";
}

export interface LookupLocation__Output {
  'collection_name'?: (string);
  'vector_name'?: (string);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  '_vector_name'?: "vector_name";
  '_shard_key_selector'?: "shard_key_selector";
}
