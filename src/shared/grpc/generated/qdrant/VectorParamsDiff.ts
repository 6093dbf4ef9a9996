// Original file: proto/collections.proto

import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';
import type { QuantizationConfigDiff as _qdrant_QuantizationConfigDiff, QuantizationConfigDiff__Output as _qdrant_QuantizationConfigDiff__Output } from '../qdrant/QuantizationConfigDiff.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface VectorParamsDiff {
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'quantization_config'?: (_qdrant_QuantizationConfigDiff | null);
  'on_disk'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_hnsw_config'?: "hnsw_config";
  '_quantization_config'?: "quantization_config";
  '_on_disk'?: "on_disk";
  '_memory'?: "memory";
}

export interface VectorParamsDiff__Output {
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'quantization_config'?: (_qdrant_QuantizationConfigDiff__Output);
  'on_disk'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_hnsw_config'?: "hnsw_config";
  '_quantization_config'?: "quantization_config";
  '_on_disk'?: "on_disk";
  '_memory'?: "memory";
}
