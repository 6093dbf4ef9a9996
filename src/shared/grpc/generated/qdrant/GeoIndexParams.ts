// Original file: proto/collections.proto

import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface GeoIndexParams {
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}

export interface GeoIndexParams__Output {
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}
