// Original file: proto/points.proto

import type { PointsSelector as _qdrant_PointsSelector, PointsSelector__Output as _qdrant_PointsSelector__Output } from '../qdrant/PointsSelector.js';
import type { VectorsSelector as _qdrant_VectorsSelector, VectorsSelector__Output as _qdrant_VectorsSelector__Output } from '../qdrant/VectorsSelector.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Long } from '@grpc/proto-loader';

export interface DeletePointVectors {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'points_selector'?: (_qdrant_PointsSelector | null);
  'vectors'?: (_qdrant_VectorsSelector | null);
  'ordering'?: (_qdrant_WriteOrdering | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'timeout'?: (number | string | Long);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_timeout'?: "timeout";
}

export interface DeletePointVectors__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'points_selector'?: (_qdrant_PointsSelector__Output);
  'vectors'?: (_qdrant_VectorsSelector__Output);
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'timeout'?: (string);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_timeout'?: "timeout";
}
