// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';
import type { VectorsOutput as _qdrant_VectorsOutput, VectorsOutput__Output as _qdrant_VectorsOutput__Output } from '../qdrant/VectorsOutput.js';
import type { ShardKey as _qdrant_ShardKey, ShardKey__Output as _qdrant_ShardKey__Output } from '../qdrant/ShardKey.js';
import type { OrderValue as _qdrant_OrderValue, OrderValue__Output as _qdrant_OrderValue__Output } from '../qdrant/OrderValue.js';

export interface RetrievedPoint {
  'id'?: (_qdrant_PointId | null);
  'payload'?: ({[key: string]: _qdrant_Value});
  'vectors'?: (_qdrant_VectorsOutput | null);
  'shard_key'?: (_qdrant_ShardKey | null);
  'order_value'?: (_qdrant_OrderValue | null);
  '_vectors'?: "vectors";
  '_shard_key'?: "shard_key";
  '_order_value'?: "order_value";
}

export interface RetrievedPoint__Output {
  'id'?: (_qdrant_PointId__Output);
  'payload': ({[key: string]: _qdrant_Value__Output});
  'vectors'?: (_qdrant_VectorsOutput__Output);
  'shard_key'?: (_qdrant_ShardKey__Output);
  'order_value'?: (_qdrant_OrderValue__Output);
  '_vectors'?: "vectors";
  '_shard_key'?: "shard_key";
  '_order_value'?: "order_value";
}
