// Original file: proto/points.proto

import type { PointStruct as _qdrant_PointStruct, PointStruct__Output as _qdrant_PointStruct__Output } from '../qdrant/PointStruct.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { UpdateMode as _qdrant_UpdateMode, UpdateMode__Output as _qdrant_UpdateMode__Output } from '../qdrant/UpdateMode.js';
import type { Long } from '@grpc/proto-loader';

export interface UpsertPoints {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'points'?: (_qdrant_PointStruct)[];
  'ordering'?: (_qdrant_WriteOrdering | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'update_filter'?: (_qdrant_Filter | null);
  'timeout'?: (number | string | Long);
  'update_mode'?: (_qdrant_UpdateMode);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
  '_timeout'?: "timeout";
  '_update_mode'?: "update_mode";
}

export interface UpsertPoints__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'points': (_qdrant_PointStruct__Output)[];
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'update_filter'?: (_qdrant_Filter__Output);
  'timeout'?: (string);
  'update_mode'?: (_qdrant_UpdateMode__Output);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
  '_timeout'?: "timeout";
  '_update_mode'?: "update_mode";
}
