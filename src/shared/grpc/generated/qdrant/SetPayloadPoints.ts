// Original file: proto/points.proto

import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';
import type { PointsSelector as _qdrant_PointsSelector, PointsSelector__Output as _qdrant_PointsSelector__Output } from '../qdrant/PointsSelector.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Long } from '@grpc/proto-loader';

export interface SetPayloadPoints {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'payload'?: ({[key: string]: _qdrant_Value});
  'points_selector'?: (_qdrant_PointsSelector | null);
  'ordering'?: (_qdrant_WriteOrdering | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'key'?: (string);
  'timeout'?: (number | string | Long);
  '_wait'?: "wait";
  '_points_selector'?: "points_selector";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_key'?: "key";
  '_timeout'?: "timeout";
}

export interface SetPayloadPoints__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'payload': ({[key: string]: _qdrant_Value__Output});
  'points_selector'?: (_qdrant_PointsSelector__Output);
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'key'?: (string);
  'timeout'?: (string);
  '_wait'?: "wait";
  '_points_selector'?: "points_selector";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_key'?: "key";
  '_timeout'?: "timeout";
}
