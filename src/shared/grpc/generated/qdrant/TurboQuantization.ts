// Original file: proto/collections.proto

import type { TurboQuantBitSize as _qdrant_TurboQuantBitSize, TurboQuantBitSize__Output as _qdrant_TurboQuantBitSize__Output } from '../qdrant/TurboQuantBitSize.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface TurboQuantization {
  'always_ram'?: (boolean);
  'bits'?: (_qdrant_TurboQuantBitSize);
  'memory'?: (_qdrant_Memory);
  '_always_ram'?: "always_ram";
  '_bits'?: "bits";
  '_memory'?: "memory";
}

export interface TurboQuantization__Output {
  'always_ram'?: (boolean);
  'bits'?: (_qdrant_TurboQuantBitSize__Output);
  'memory'?: (_qdrant_Memory__Output);
  '_always_ram'?: "always_ram";
  '_bits'?: "bits";
  '_memory'?: "memory";
}
