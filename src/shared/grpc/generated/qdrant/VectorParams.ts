// Original file: proto/collections.proto

import type { Distance as _qdrant_Distance, Distance__Output as _qdrant_Distance__Output } from '../qdrant/Distance.js';
import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';
import type { QuantizationConfig as _qdrant_QuantizationConfig, QuantizationConfig__Output as _qdrant_QuantizationConfig__Output } from '../qdrant/QuantizationConfig.js';
import type { Datatype as _qdrant_Datatype, Datatype__Output as _qdrant_Datatype__Output } from '../qdrant/Datatype.js';
import type { MultiVectorConfig as _qdrant_MultiVectorConfig, MultiVectorConfig__Output as _qdrant_MultiVectorConfig__Output } from '../qdrant/MultiVectorConfig.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';
import type { Long } from '@grpc/proto-loader';

export interface VectorParams {
  'size'?: (number | string | Long);
  'distance'?: (_qdrant_Distance);
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'quantization_config'?: (_qdrant_QuantizationConfig | null);
  'on_disk'?: (boolean);
  'datatype'?: (_qdrant_Datatype);
  'multivector_config'?: (_qdrant_MultiVectorConfig | null);
  'memory'?: (_qdrant_Memory);
  '_hnsw_config'?: "hnsw_config";
  '_quantization_config'?: "quantization_config";
  '_on_disk'?: "on_disk";
  '_datatype'?: "datatype";
  '_multivector_config'?: "multivector_config";
  '_memory'?: "memory";
}

export interface VectorParams__Output {
  'size'?: (string);
  'distance'?: (_qdrant_Distance__Output);
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'quantization_config'?: (_qdrant_QuantizationConfig__Output);
  'on_disk'?: (boolean);
  'datatype'?: (_qdrant_Datatype__Output);
  'multivector_config'?: (_qdrant_MultiVectorConfig__Output);
  'memory'?: (_qdrant_Memory__Output);
  '_hnsw_config'?: "hnsw_config";
  '_quantization_config'?: "quantization_config";
  '_on_disk'?: "on_disk";
  '_datatype'?: "datatype";
  '_multivector_config'?: "multivector_config";
  '_memory'?: "memory";
}
