// Original file: proto/collections.proto

import type { CompressionRatio as _qdrant_CompressionRatio, CompressionRatio__Output as _qdrant_CompressionRatio__Output } from '../qdrant/CompressionRatio.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface ProductQuantization {
  'compression'?: (_qdrant_CompressionRatio);
  'always_ram'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_always_ram'?: "always_ram";
  '_memory'?: "memory";
}

export interface ProductQuantization__Output {
  'compression'?: (_qdrant_CompressionRatio__Output);
  'always_ram'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_always_ram'?: "always_ram";
  '_memory'?: "memory";
}
