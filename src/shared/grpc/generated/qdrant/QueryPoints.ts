// Original file: proto/points.proto

import type { PrefetchQuery as _qdrant_PrefetchQuery, PrefetchQuery__Output as _qdrant_PrefetchQuery__Output } from '../qdrant/PrefetchQuery.js';
import type { Query as _qdrant_Query, Query__Output as _qdrant_Query__Output } from '../qdrant/Query.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { SearchParams as _qdrant_SearchParams, SearchParams__Output as _qdrant_SearchParams__Output } from '../qdrant/SearchParams.js';
import type { WithVectorsSelector as _qdrant_WithVectorsSelector, WithVectorsSelector__Output as _qdrant_WithVectorsSelector__Output } from '../qdrant/WithVectorsSelector.js';
import type { WithPayloadSelector as _qdrant_WithPayloadSelector, WithPayloadSelector__Output as _qdrant_WithPayloadSelector__Output } from '../qdrant/WithPayloadSelector.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { LookupLocation as _qdrant_LookupLocation, LookupLocation__Output as _qdrant_LookupLocation__Output } from '../qdrant/LookupLocation.js';
import type { Long } from '@grpc/proto-loader';

export interface QueryPoints {
  'collection_name'?: (string);
  'prefetch'?: (_qdrant_PrefetchQuery)[];
  'query'?: (_qdrant_Query | null);
  'using'?: (string);
  'filter'?: (_qdrant_Filter | null);
  'params'?: (_qdrant_SearchParams | null);
  'score_threshold'?: (number | string);
  'limit'?: (number | string | Long);
  'offset'?: (number | string | Long);
  'with_vectors'?: (_qdrant_WithVectorsSelector | null);
  'with_payload'?: (_qdrant_WithPayloadSelector | null);
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'lookup_from'?: (_qdrant_LookupLocation | null);
  'timeout'?: (number | string | Long);
  '_query'?: "query";
  '_using'?: "using";
  '_filter'?: "filter";
  '_params'?: "params";
  '_score_threshold'?: "score_threshold";
  '_limit'?: "limit";
  '_offset'?: "offset";
  '_with_vectors'?: "with_vectors";
  '_with_payload'?: "with_payload";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_lookup_from'?: "lookup_from";
  '_timeout'?: "timeout";
}

export interface QueryPoints__Output {
  'collection_name'?: (string);
  'prefetch': (_qdrant_PrefetchQuery__Output)[];
  'query'?: (_qdrant_Query__Output);
  'using'?: (string);
  'filter'?: (_qdrant_Filter__Output);
  'params'?: (_qdrant_SearchParams__Output);
  'score_threshold'?: (number);
  'limit'?: (string);
  'offset'?: (string);
  'with_vectors'?: (_qdrant_WithVectorsSelector__Output);
  'with_payload'?: (_qdrant_WithPayloadSelector__Output);
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'lookup_from'?: (_qdrant_LookupLocation__Output);
  'timeout'?: (string);
  '_query'?: "query";
  '_using'?: "using";
  '_filter'?: "filter";
  '_params'?: "params";
  '_score_threshold'?: "score_threshold";
  '_limit'?: "limit";
  '_offset'?: "offset";
  '_with_vectors'?: "with_vectors";
  '_with_payload'?: "with_payload";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_lookup_from'?: "lookup_from";
  '_timeout'?: "timeout";
}
