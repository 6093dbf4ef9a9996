// Original file: proto/points.proto

import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { WithPayloadSelector as _qdrant_WithPayloadSelector, WithPayloadSelector__Output as _qdrant_WithPayloadSelector__Output } from '../qdrant/WithPayloadSelector.js';
import type { WithVectorsSelector as _qdrant_WithVectorsSelector, WithVectorsSelector__Output as _qdrant_WithVectorsSelector__Output } from '../qdrant/WithVectorsSelector.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { OrderBy as _qdrant_OrderBy, OrderBy__Output as _qdrant_OrderBy__Output } from '../qdrant/OrderBy.js';
import type { Long } from '@grpc/proto-loader';

export interface ScrollPoints {
  'collection_name'?: (string);
  'filter'?: (_qdrant_Filter | null);
  'offset'?: (_qdrant_PointId | null);
  'limit'?: (number);
  'with_payload'?: (_qdrant_WithPayloadSelector | null);
  'with_vectors'?: (_qdrant_WithVectorsSelector | null);
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'order_by'?: (_qdrant_OrderBy | null);
  'timeout'?: (number | string | Long);
  '_offset'?: "offset";
  '_limit'?: "limit";
  '_with_vectors'?: "with_vectors";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_order_by'?: "order_by";
  '_timeout'?: "timeout";
}

export interface ScrollPoints__Output {
  'collection_name'?: (string);
  'filter'?: (_qdrant_Filter__Output);
  'offset'?: (_qdrant_PointId__Output);
  'limit'?: (number);
  'with_payload'?: (_qdrant_WithPayloadSelector__Output);
  'with_vectors'?: (_qdrant_WithVectorsSelector__Output);
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'order_by'?: (_qdrant_OrderBy__Output);
  'timeout'?: (string);
  '_offset'?: "offset";
  '_limit'?: "limit";
  '_with_vectors'?: "with_vectors";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_order_by'?: "order_by";
  '_timeout'?: "timeout";
}
