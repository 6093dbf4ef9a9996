// Original file: proto/collections.proto

import type { QuantizationType as _qdrant_QuantizationType, QuantizationType__Output as _qdrant_QuantizationType__Output } from '../qdrant/QuantizationType.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface ScalarQuantization {
  'type'?: (_qdrant_QuantizationType);
  'quantile'?: (number | string);
  'always_ram'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_quantile'?: "quantile";
  '_always_ram'?: "always_ram";
  '_memory'?: "memory";
}

export interface ScalarQuantization__Output {
  'type'?: (_qdrant_QuantizationType__Output);
  'quantile'?: (number);
  'always_ram'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_quantile'?: "quantile";
  '_always_ram'?: "always_ram";
  '_memory'?: "memory";
}
