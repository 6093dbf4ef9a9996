// Original file: proto/collections.proto

import type { VectorsConfig as _qdrant_VectorsConfig, VectorsConfig__Output as _qdrant_VectorsConfig__Output } from '../qdrant/VectorsConfig.js';
import type { ShardingMethod as _qdrant_ShardingMethod, ShardingMethod__Output as _qdrant_ShardingMethod__Output } from '../qdrant/ShardingMethod.js';
import type { SparseVectorConfig as _qdrant_SparseVectorConfig, SparseVectorConfig__Output as _qdrant_SparseVectorConfig__Output } from '../qdrant/SparseVectorConfig.js';
import type { PayloadStorageParams as _qdrant_PayloadStorageParams, PayloadStorageParams__Output as _qdrant_PayloadStorageParams__Output } from '../qdrant/PayloadStorageParams.js';

export interface CollectionParams {
  'shard_number'?: (number);
  'on_disk_payload'?: (boolean);
  'vectors_config'?: (_qdrant_VectorsConfig | null);
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'sharding_method'?: (_qdrant_ShardingMethod);
  'sparse_vectors_config'?: (_qdrant_SparseVectorConfig | null);
  'payload'?: (_qdrant_PayloadStorageParams | null);
  '_vectors_config'?: "vectors_config";
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_sharding_method'?: "sharding_method";
  '_sparse_vectors_config'?: "sparse_vectors_config";
  '_payload'?: "payload";
}

export interface CollectionParams__Output {
  'shard_number'?: (number);
  'on_disk_payload'?: (boolean);
  'vectors_config'?: (_qdrant_VectorsConfig__Output);
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'sharding_method'?: (_qdrant_ShardingMethod__Output);
  'sparse_vectors_config'?: (_qdrant_SparseVectorConfig__Output);
  'payload'?: (_qdrant_PayloadStorageParams__Output);
  '_vectors_config'?: "vectors_config";
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_sharding_method'?: "sharding_method";
  '_sparse_vectors_config'?: "sparse_vectors_config";
  '_payload'?: "payload";
}
