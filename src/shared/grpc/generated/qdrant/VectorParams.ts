// Original file: proto/collections.proto

import type { Distance as _qdrant_Distance, Distance__Output as _qdrant_Distance__Output } from '../qdrant/Distance.js';
import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';
import type { QuantizationConfig as _qdrant_QuantizationConfig, QuantizationConfig__Output as _qdrant_QuantizationConfig__Output } from '../qdrant/QuantizationConfig.js';
import type { Long } from '@grpc/proto-loader';

export interface VectorParams {
  'size'?: (number | string | Long);
  'distance'?: (_qdrant_Distance);
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'quantization_config'?: (_qdrant_QuantizationConfig | null);
  'on_disk'?: (boolean);
  '_hnsw_config'?: "hnsw_config";
  '_quantization_config'?: "quantization_config";
  '_on_disk'?: "on_disk";
}

export interface VectorParams__Output {
  'size'?: (string);
  'distance'?: (_qdrant_Distance__Output);
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'quantization_config'?: (_qdrant_QuantizationConfig__Output);
  'on_disk'?: (boolean);
  '_hnsw_config'?: "hnsw_config";
  '_quantization_config'?: "quantization_config";
  '_on_disk'?: "on_disk";
}
