// Original file: proto/collections.proto

import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface IntegerIndexParams {
  'lookup'?: (boolean);
  'range'?: (boolean);
  'is_principal'?: (boolean);
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_lookup'?: "lookup";
  '_range'?: "range";
  '_is_principal'?: "is_principal";
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}

export interface IntegerIndexParams__Output {
  'lookup'?: (boolean);
  'range'?: (boolean);
  'is_principal'?: (boolean);
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_lookup'?: "lookup";
  '_range'?: "range";
  '_is_principal'?: "is_principal";
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}
