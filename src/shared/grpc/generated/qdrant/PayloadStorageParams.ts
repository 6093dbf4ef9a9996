// Original file: proto/collections.proto

import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface PayloadStorageParams {
  'memory'?: (_qdrant_Memory);
  '_memory'?: "memory";
}

export interface PayloadStorageParams__Output {
  'memory'?: (_qdrant_Memory__Output);
  '_memory'?: "memory";
}
