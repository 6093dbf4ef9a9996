// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { WithPayloadSelector as _qdrant_WithPayloadSelector, WithPayloadSelector__Output as _qdrant_WithPayloadSelector__Output } from '../qdrant/WithPayloadSelector.js';
import type { WithVectorsSelector as _qdrant_WithVectorsSelector, WithVectorsSelector__Output as _qdrant_WithVectorsSelector__Output } from '../qdrant/WithVectorsSelector.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { ShardKeySelector as _qdrant_ShardKeySelector, ShardKeySelector__Output as _qdrant_ShardKeySelector__Output } from '../qdrant/ShardKeySelector.js';
import type { Long } from '@grpc/proto-loader';

export interface GetPoints {
  'collection_name'?: (string);
  'ids'?: (_qdrant_PointId)[];
  'with_payload'?: (_qdrant_WithPayloadSelector | null);
  'with_vectors'?: (_qdrant_WithVectorsSelector | null);
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'shard_key_selector'?: (_qdrant_ShardKeySelector | null);
  'timeout'?: (number | string | Long);
  '_with_vectors'?: "with_vectors";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_timeout'?: "timeout";
}

export interface GetPoints__Output {
  'collection_name'?: (string);
  'ids': (_qdrant_PointId__Output)[];
  'with_payload'?: (_qdrant_WithPayloadSelector__Output);
  'with_vectors'?: (_qdrant_WithVectorsSelector__Output);
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'shard_key_selector'?: (_qdrant_ShardKeySelector__Output);
  'timeout'?: (string);
  '_with_vectors'?: "with_vectors";
  '_read_consistency'?: "read_consistency";
  '_shard_key_selector'?: "shard_key_selector";
  '_timeout'?: "timeout";
}
