// Original file: proto/collections.proto

import type { CollectionParams as _qdrant_CollectionParams, CollectionParams__Output as _qdrant_CollectionParams__Output } from '../qdrant/CollectionParams.js';
import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';
import type { OptimizersConfigDiff as _qdrant_OptimizersConfigDiff, OptimizersConfigDiff__Output as _qdrant_OptimizersConfigDiff__Output } from '../qdrant/OptimizersConfigDiff.js';
import type { WalConfigDiff as _qdrant_WalConfigDiff, WalConfigDiff__Output as _qdrant_WalConfigDiff__Output } from '../qdrant/WalConfigDiff.js';
import type { QuantizationConfig as _qdrant_QuantizationConfig, QuantizationConfig__Output as _qdrant_QuantizationConfig__Output } from '../qdrant/QuantizationConfig.js';
import type { StrictModeConfig as _qdrant_StrictModeConfig, StrictModeConfig__Output as _qdrant_StrictModeConfig__Output } from '../qdrant/StrictModeConfig.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface CollectionConfig {
  'params'?: (_qdrant_CollectionParams | null);
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'optimizer_config'?: (_qdrant_OptimizersConfigDiff | null);
  'wal_config'?: (_qdrant_WalConfigDiff | null);
  'quantization_config'?: (_qdrant_QuantizationConfig | null);
  'strict_mode_config'?: (_qdrant_StrictModeConfig | null);
  'metadata'?: ({[key: string]: _qdrant_Value});
  '_quantization_config'?: "quantization_config";
  '_strict_mode_config'?: "strict_mode_config";
}

export interface CollectionConfig__Output {
  'params'?: (_qdrant_CollectionParams__Output);
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'optimizer_config'?: (_qdrant_OptimizersConfigDiff__Output);
  'wal_config'?: (_qdrant_WalConfigDiff__Output);
  'quantization_config'?: (_qdrant_QuantizationConfig__Output);
  'strict_mode_config'?: (_qdrant_StrictModeConfig__Output);
  'metadata': ({[key: string]: _qdrant_Value__Output});
  '_quantization_config'?: "quantization_config";
  '_strict_mode_config'?: "strict_mode_config";
}
