// Original file: proto/points.proto

import type { PointsSelector as _qdrant_PointsSelector, PointsSelector__Output as _qdrant_PointsSelector__Output } from '../qdrant/PointsSelector.js';
import type { PointStruct as _qdrant_PointStruct, PointStruct__Output as _qdrant_PointStruct__Output } from '../qdrant/PointStruct.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { UpdateMode as _qdrant_UpdateMode, UpdateMode__Output as _qdrant_UpdateMode__Output } from '../qdrant/UpdateMode.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';
import type { PointVectors as _qdrant_PointVectors, PointVectors__Output as _qdrant_PointVectors__Output } from '../qdrant/PointVectors.js';
import type { VectorsSelector as _qdrant_VectorsSelector, VectorsSelector__Output as _qdrant_VectorsSelector__Output } from '../qdrant/VectorsSelector.js';

export interface _qdrant_PointsUpdateOperation_ClearPayload {
  'points'?: (_qdrant_PointsSelector | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_ClearPayload__Output {
  'points'?: (_qdrant_PointsSelector__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_DeletePayload {
  'keys'?: (string)[];
  'points_selector'?: (_qdrant_PointsSelector | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  '_points_selector'?: "points_selector";
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_DeletePayload__Output {
  'keys': (string)[];
  'points_selector'?: (_qdrant_PointsSelector__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  '_points_selector'?: "points_selector";
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_DeletePoints {
  'points'?: (_qdrant_PointsSelector | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_DeletePoints__Output {
  'points'?: (_qdrant_PointsSelector__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_DeleteVectors {
  'points_selector'?: (_qdrant_PointsSelector | null);
  'vectors'?: (_qdrant_VectorsSelector | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_DeleteVectors__Output {
  'points_selector'?: (_qdrant_PointsSelector__Output);
  'vectors'?: (_qdrant_VectorsSelector__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  '_shard_key_selector'?: "shard_key_selector";
}

export interface _qdrant_PointsUpdateOperation_OverwritePayload {
  'payload'?: ({[key: string]: _qdrant_Value});
  'points_selector'?: (_qdrant_PointsSelector | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'key'?: (string);
  '_points_selector'?: "points_selector";
  '_shard_key_selector'?: "shard_key_selector";
  '_key'?: "key";
}

export interface _qdrant_PointsUpdateOperation_OverwritePayload__Output {
  'payload': ({[key: string]: _qdrant_Value__Output});
  'points_selector'?: (_qdrant_PointsSelector__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'key'?: (string);
  '_points_selector'?: "points_selector";
  '_shard_key_selector'?: "shard_key_selector";
  '_key'?: "key";
}

export interface _qdrant_PointsUpdateOperation_PointStructList {
  'points'?: (_qdrant_PointStruct)[];
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'update_filter'?: (_qdrant_Filter | null);
  'update_mode'?: (_qdrant_UpdateMode);
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
  '_update_mode'?: "update_mode";
}

export interface _qdrant_PointsUpdateOperation_PointStructList__Output {
  'points': (_qdrant_PointStruct__Output)[];
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'update_filter'?: (_qdrant_Filter__Output);
  'update_mode'?: (_qdrant_UpdateMode__Output);
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
  '_update_mode'?: "update_mode";
}

export interface _qdrant_PointsUpdateOperation_SetPayload {
  'payload'?: ({[key: string]: _qdrant_Value});
  'points_selector'?: (_qdrant_PointsSelector | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'key'?: (string);
  '_points_selector'?: "points_selector";
  '_shard_key_selector'?: "shard_key_selector";
  '_key'?: "key";
}

export interface _qdrant_PointsUpdateOperation_SetPayload__Output {
  'payload': ({[key: string]: _qdrant_Value__Output});
  'points_selector'?: (_qdrant_PointsSelector__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'key'?: (string);
  '_points_selector'?: "points_selector";
  '_shard_key_selector'?: "shard_key_selector";
  '_key'?: "key";
}

export interface _qdrant_PointsUpdateOperation_UpdateVectors {
  'points'?: (_qdrant_PointVectors)[];
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'update_filter'?: (_qdrant_Filter | null);
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
}

export interface _qdrant_PointsUpdateOperation_UpdateVectors__Output {
  'points': (_qdrant_PointVectors__Output)[];
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'update_filter'?: (_qdrant_Filter__Output);
  '_shard_key_selector'?: "shard_key_selector";
  '_update_filter'?: "update_filter";
}

export interface PointsUpdateOperation {
  'upsert'?: (_qdrant_PointsUpdateOperation_PointStructList | null);
  'delete_deprecated'?: (_qdrant_PointsSelector | null);
  'set_payload'?: (_qdrant_PointsUpdateOperation_SetPayload | null);
  'overwrite_payload'?: (_qdrant_PointsUpdateOperation_OverwritePayload | null);
  'delete_payload'?: (_qdrant_PointsUpdateOperation_DeletePayload | null);
  'clear_payload_deprecated'?: (_qdrant_PointsSelector | null);
  'update_vectors'?: (_qdrant_PointsUpdateOperation_UpdateVectors | null);
  'delete_vectors'?: (_qdrant_PointsUpdateOperation_DeleteVectors | null);
  'delete_points'?: (_qdrant_PointsUpdateOperation_DeletePoints | null);
  'clear_payload'?: (_qdrant_PointsUpdateOperation_ClearPayload | null);
  'operation'?: "upsert"|"delete_deprecated"|"set_payload"|"overwrite_payload"|"delete_payload"|"clear_payload_deprecated"|"update_vectors"|"delete_vectors"|"delete_points"|"clear_payload";
}

export interface PointsUpdateOperation__Output {
  'upsert'?: (_qdrant_PointsUpdateOperation_PointStructList__Output);
  'delete_deprecated'?: (_qdrant_PointsSelector__Output);
  'set_payload'?: (_qdrant_PointsUpdateOperation_SetPayload__Output);
  'overwrite_payload'?: (_qdrant_PointsUpdateOperation_OverwritePayload__Output);
  'delete_payload'?: (_qdrant_PointsUpdateOperation_DeletePayload__Output);
  'clear_payload_deprecated'?: (_qdrant_PointsSelector__Output);
  'update_vectors'?: (_qdrant_PointsUpdateOperation_UpdateVectors__Output);
  'delete_vectors'?: (_qdrant_PointsUpdateOperation_DeleteVectors__Output);
  'delete_points'?: (_qdrant_PointsUpdateOperation_DeletePoints__Output);
  'clear_payload'?: (_qdrant_PointsUpdateOperation_ClearPayload__Output);
  'operation'?: "upsert"|"delete_deprecated"|"set_payload"|"overwrite_payload"|"delete_payload"|"clear_payload_deprecated"|"update_vectors"|"delete_vectors"|"delete_points"|"clear_payload";
}
