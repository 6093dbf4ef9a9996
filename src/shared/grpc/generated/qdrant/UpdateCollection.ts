// Original file: proto/collections.proto

import type { OptimizersConfigDiff as _qdrant_OptimizersConfigDiff, OptimizersConfigDiff__Output as _qdrant_OptimizersConfigDiff__Output } from '../qdrant/OptimizersConfigDiff.js';
import type { CollectionParamsDiff as _qdrant_CollectionParamsDiff, CollectionParamsDiff__Output as _qdrant_CollectionParamsDiff__Output } from '../qdrant/CollectionParamsDiff.js';
import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';
import type { VectorsConfigDiff as _qdrant_VectorsConfigDiff, VectorsConfigDiff__Output as _qdrant_VectorsConfigDiff__Output } from '../qdrant/VectorsConfigDiff.js';
import type { QuantizationConfigDiff as _qdrant_QuantizationConfigDiff, QuantizationConfigDiff__Output as _qdrant_QuantizationConfigDiff__Output } from '../qdrant/QuantizationConfigDiff.js';
import type { SparseVectorConfig as _qdrant_SparseVectorConfig, SparseVectorConfig__Output as _qdrant_SparseVectorConfig__Output } from '../qdrant/SparseVectorConfig.js';
import type { StrictModeConfig as _qdrant_StrictModeConfig, StrictModeConfig__Output as _qdrant_StrictModeConfig__Output } from '../qdrant/StrictModeConfig.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateCollection {
  'collection_name'?: (string);
  'optimizers_config'?: (_qdrant_OptimizersConfigDiff | null);
  'timeout'?: (number | string | Long);
  'params'?: (_qdrant_CollectionParamsDiff | null);
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'vectors_config'?: (_qdrant_VectorsConfigDiff | null);
  'quantization_config'?: (_qdrant_QuantizationConfigDiff | null);
  'sparse_vectors_config'?: (_qdrant_SparseVectorConfig | null);
  'strict_mode_config'?: (_qdrant_StrictModeConfig | null);
  'metadata'?: ({[key: string]: _qdrant_Value});
  '_optimizers_config'?: "optimizers_config";
  '_timeout'?: "timeout";
  '_params'?: "params";
  '_hnsw_config'?: "hnsw_config";
  '_vectors_config'?: "vectors_config";
  '_quantization_config'?: "quantization_config";
  '_sparse_vectors_config'?: "sparse_vectors_config";
  '_strict_mode_config'?: "strict_mode_config";
}

export interface UpdateCollection__Output {
  'collection_name'?: (string);
  'optimizers_config'?: (_qdrant_OptimizersConfigDiff__Output);
  'timeout'?: (string);
  'params'?: (_qdrant_CollectionParamsDiff__Output);
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'vectors_config'?: (_qdrant_VectorsConfigDiff__Output);
  'quantization_config'?: (_qdrant_QuantizationConfigDiff__Output);
  'sparse_vectors_config'?: (_qdrant_SparseVectorConfig__Output);
  'strict_mode_config'?: (_qdrant_StrictModeConfig__Output);
  'metadata': ({[key: string]: _qdrant_Value__Output});
  '_optimizers_config'?: "optimizers_config";
  '_timeout'?: "timeout";
  '_params'?: "params";
  '_hnsw_config'?: "hnsw_config";
  '_vectors_config'?: "vectors_config";
  '_quantization_config'?: "quantization_config";
  '_sparse_vectors_config'?: "sparse_vectors_config";
  '_strict_mode_config'?: "strict_mode_config";
}
