// Original file: proto/collections.proto

import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface DatetimeIndexParams {
  'on_disk'?: (boolean);
  'is_principal'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_on_disk'?: "on_disk";
  '_is_principal'?: "is_principal";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}

export interface DatetimeIndexParams__Output {
  'on_disk'?: (boolean);
  'is_principal'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_on_disk'?: "on_disk";
  '_is_principal'?: "is_principal";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}
