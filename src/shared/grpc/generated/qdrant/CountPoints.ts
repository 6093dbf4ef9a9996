// Original file: proto/points.proto

import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Long } from '@grpc/proto-loader';

export interface CountPoints {
  'collection_name'?: (string);
  'filter'?: (_qdrant_Filter | null);
  'exact'?: (boolean);
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'timeout'?: (number | string | Long);
  '_exact'?: "exact";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_timeout'?: "timeout";
}

export interface CountPoints__Output {
  'collection_name'?: (string);
  'filter'?: (_qdrant_Filter__Output);
  'exact'?: (boolean);
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'timeout'?: (string);
  '_exact'?: "exact";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_timeout'?: "timeout";
}
