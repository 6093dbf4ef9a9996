// Original file: proto/collections.proto

import type { CollectionStatus as _qdrant_CollectionStatus, CollectionStatus__Output as _qdrant_CollectionStatus__Output } from '../qdrant/CollectionStatus.js';
import type { OptimizerStatus as _qdrant_OptimizerStatus, OptimizerStatus__Output as _qdrant_OptimizerStatus__Output } from '../qdrant/OptimizerStatus.js';
import type { CollectionConfig as _qdrant_CollectionConfig, CollectionConfig__Output as _qdrant_CollectionConfig__Output } from '../qdrant/CollectionConfig.js';
import type { PayloadSchemaInfo as _qdrant_PayloadSchemaInfo, PayloadSchemaInfo__Output as _qdrant_PayloadSchemaInfo__Output } from '../qdrant/PayloadSchemaInfo.js';
import type { Long } from '@grpc/proto-loader';

export interface CollectionInfo {
  'status'?: (_qdrant_CollectionStatus);
  'optimizer_status'?: (_qdrant_OptimizerStatus | null);
  'segments_count'?: (number | string | Long);
  'config'?: (_qdrant_CollectionConfig | null);
  'payload_schema'?: ({[key: string]: _qdrant_PayloadSchemaInfo});
  'points_count'?: (number | string | Long);
  'indexed_vectors_count'?: (number | string | Long);
  '_points_count'?: "points_count";
  '_indexed_vectors_count'?: "indexed_vectors_count";
}

export interface CollectionInfo__Output {
  'status'?: (_qdrant_CollectionStatus__Output);
  'optimizer_status'?: (_qdrant_OptimizerStatus__Output);
  'segments_count'?: (string);
  'config'?: (_qdrant_CollectionConfig__Output);
  'payload_schema': ({[key: string]: _qdrant_PayloadSchemaInfo__Output});
  'points_count'?: (string);
  'indexed_vectors_count'?: (string);
  '_points_count'?: "points_count";
  '_indexed_vectors_count'?: "indexed_vectors_count";
}
