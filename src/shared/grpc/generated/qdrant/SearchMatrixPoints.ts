// Original file: proto/points.proto

import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Long } from '@grpc/proto-loader';

export interface SearchMatrixPoints {
  'collection_name'?: (string);
  'filter'?: (_qdrant_Filter | null);
  'sample'?: (number | string | Long);
  'limit'?: (number | string | Long);
  'using'?: (string);
  'timeout'?: (number | string | Long);
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  '_filter'?: "filter";
  '_sample'?: "sample";
  '_limit'?: "limit";
  '_using'?: "using";
  '_timeout'?: "timeout";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
}

export interface SearchMatrixPoints__Output {
  'collection_name'?: (string);
  'filter'?: (_qdrant_Filter__Output);
  'sample'?: (string);
  'limit'?: (string);
  'using'?: (string);
  'timeout'?: (string);
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  '_filter'?: "filter";
  '_sample'?: "sample";
  '_limit'?: "limit";
  '_using'?: "using";
  '_timeout'?: "timeout";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
}
