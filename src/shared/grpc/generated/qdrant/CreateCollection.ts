// Original file: proto/collections.proto

import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';
import type { WalConfigDiff as _qdrant_WalConfigDiff, WalConfigDiff__Output as _qdrant_WalConfigDiff__Output } from '../qdrant/WalConfigDiff.js';
import type { OptimizersConfigDiff as _qdrant_OptimizersConfigDiff, OptimizersConfigDiff__Output as _qdrant_OptimizersConfigDiff__Output } from '../qdrant/OptimizersConfigDiff.js';
import type { VectorsConfig as _qdrant_VectorsConfig, VectorsConfig__Output as _qdrant_VectorsConfig__Output } from '../qdrant/VectorsConfig.js';
import type { QuantizationConfig as _qdrant_QuantizationConfig, QuantizationConfig__Output as _qdrant_QuantizationConfig__Output } from '../qdrant/QuantizationConfig.js';
import type { ShardingMethod as _qdrant_ShardingMethod, ShardingMethod__Output as _qdrant_ShardingMethod__Output } from '../qdrant/ShardingMethod.js';
import type { SparseVectorConfig as _qdrant_SparseVectorConfig, SparseVectorConfig__Output as _qdrant_SparseVectorConfig__Output } from '../qdrant/SparseVectorConfig.js';
import type { StrictModeConfig as _qdrant_StrictModeConfig, StrictModeConfig__Output as _qdrant_StrictModeConfig__Output } from '../qdrant/StrictModeConfig.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';
import type { PayloadStorageParams as _qdrant_PayloadStorageParams, PayloadStorageParams__Output as _qdrant_PayloadStorageParams__Output } from '../qdrant/PayloadStorageParams.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateCollection {
  'collection_name'?: (string);
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'wal_config'?: (_qdrant_WalConfigDiff | null);
  'optimizers_config'?: (_qdrant_OptimizersConfigDiff | null);
  'shard_number'?: (number);
  'on_disk_payload'?: (boolean);
  'timeout'?: (number | string | Long);
  'vectors_config'?: (_qdrant_VectorsConfig | null);
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'quantization_config'?: (_qdrant_QuantizationConfig | null);
  'sharding_method'?: (_qdrant_ShardingMethod);
  'sparse_vectors_config'?: (_qdrant_SparseVectorConfig | null);
  'strict_mode_config'?: (_qdrant_StrictModeConfig | null);
  'metadata'?: ({[key: string]: _qdrant_Value});
  'payload'?: (_qdrant_PayloadStorageParams | null);
  '_hnsw_config'?: "hnsw_config";
  '_wal_config'?: "wal_config";
  '_optimizers_config'?: "optimizers_config";
  '_shard_number'?: "shard_number";
  '_on_disk_payload'?: "on_disk_payload";
  '_timeout'?: "timeout";
  '_vectors_config'?: "vectors_config";
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_quantization_config'?: "quantization_config";
  '_sharding_method'?: "sharding_method";
  '_sparse_vectors_config'?: "sparse_vectors_config";
  '_strict_mode_config'?: "strict_mode_config";
  '_payload'?: "payload";
}

export interface CreateCollection__Output {
  'collection_name'?: (string);
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'wal_config'?: (_qdrant_WalConfigDiff__Output);
  'optimizers_config'?: (_qdrant_OptimizersConfigDiff__Output);
  'shard_number'?: (number);
  'on_disk_payload'?: (boolean);
  'timeout'?: (string);
  'vectors_config'?: (_qdrant_VectorsConfig__Output);
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'quantization_config'?: (_qdrant_QuantizationConfig__Output);
  'sharding_method'?: (_qdrant_ShardingMethod__Output);
  'sparse_vectors_config'?: (_qdrant_SparseVectorConfig__Output);
  'strict_mode_config'?: (_qdrant_StrictModeConfig__Output);
  'metadata': ({[key: string]: _qdrant_Value__Output});
  'payload'?: (_qdrant_PayloadStorageParams__Output);
  '_hnsw_config'?: "hnsw_config";
  '_wal_config'?: "wal_config";
  '_optimizers_config'?: "optimizers_config";
  '_shard_number'?: "shard_number";
  '_on_disk_payload'?: "on_disk_payload";
  '_timeout'?: "timeout";
  '_vectors_config'?: "vectors_config";
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_quantization_config'?: "quantization_config";
  '_sharding_method'?: "sharding_method";
  '_sparse_vectors_config'?: "sparse_vectors_config";
  '_strict_mode_config'?: "strict_mode_config";
  '_payload'?: "payload";
}
