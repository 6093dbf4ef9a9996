// Original file: proto/points.proto

import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { WithPayloadSelector as _qdrant_WithPayloadSelector, WithPayloadSelector__Output as _qdrant_WithPayloadSelector__Output } from '../qdrant/WithPayloadSelector.js';
import type { SearchParams as _qdrant_SearchParams, SearchParams__Output as _qdrant_SearchParams__Output } from '../qdrant/SearchParams.js';
import type { WithVectorsSelector as _qdrant_WithVectorsSelector, WithVectorsSelector__Output as _qdrant_WithVectorsSelector__Output } from '../qdrant/WithVectorsSelector.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { SparseIndices as _qdrant_SparseIndices, SparseIndices__Output as _qdrant_SparseIndices__Output } from '../qdrant/SparseIndices.js';
import type { Long } from '@grpc/proto-loader';

export interface SearchPoints {
  'collection_name'?: (string);
  'vector'?: (number | string)[];
  'filter'?: (_qdrant_Filter | null);
  'limit'?: (number | string | Long);
  'with_payload'?: (_qdrant_WithPayloadSelector | null);
  'params'?: (_qdrant_SearchParams | null);
  'score_threshold'?: (number | string);
  'offset'?: (number | string | Long);
  'vector_name'?: (string);
  'with_vectors'?: (_qdrant_WithVectorsSelector | null);
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'timeout'?: (number | string | Long);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'sparse_indices'?: (_qdrant_SparseIndices | null);
  '_score_threshold'?: "score_threshold";
  '_offset'?: "offset";
  '_vector_name'?: "vector_name";
  '_with_vectors'?: "with_vectors";
  '_read_consistency'?: "read_consistency";
  '_timeout'?: "timeout";
  '_shard_key_selector'?: "shard_key_selector";
  '_sparse_indices'?: "sparse_indices";
}

export interface SearchPoints__Output {
  'collection_name'?: (string);
  'vector': (number)[];
  'filter'?: (_qdrant_Filter__Output);
  'limit'?: (string);
  'with_payload'?: (_qdrant_WithPayloadSelector__Output);
  'params'?: (_qdrant_SearchParams__Output);
  'score_threshold'?: (number);
  'offset'?: (string);
  'vector_name'?: (string);
  'with_vectors'?: (_qdrant_WithVectorsSelector__Output);
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'timeout'?: (string);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'sparse_indices'?: (_qdrant_SparseIndices__Output);
  '_score_threshold'?: "score_threshold";
  '_offset'?: "offset";
  '_vector_name'?: "vector_name";
  '_with_vectors'?: "with_vectors";
  '_read_consistency'?: "read_consistency";
  '_timeout'?: "timeout";
  '_shard_key_selector'?: "shard_key_selector";
  '_sparse_indices'?: "sparse_indices";
}
