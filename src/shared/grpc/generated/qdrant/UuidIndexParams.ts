// Original file: proto/collections.proto

import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface UuidIndexParams {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}

export interface UuidIndexParams__Output {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}
