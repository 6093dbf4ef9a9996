// Original file: proto/points.proto

import type { PointVectors as _qdrant_PointVectors, PointVectors__Output as _qdrant_PointVectors__Output } from '../qdrant/PointVectors.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdatePointVectors {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'points'?: (_qdrant_PointVectors)[];
  'ordering'?: (_qdrant_WriteOrdering | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'update_filter'?: (_qdrant_Filter | null);
  'timeout'?: (number | string | Long);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
  '_timeout'?: "timeout";
}

export interface UpdatePointVectors__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'points': (_qdrant_PointVectors__Output)[];
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'update_filter'?: (_qdrant_Filter__Output);
  'timeout'?: (string);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
  '_timeout'?: "timeout";
}
