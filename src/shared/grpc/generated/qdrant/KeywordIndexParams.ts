// Original file: proto/collections.proto

import type { KeywordPrefixParams as _qdrant_KeywordPrefixParams, KeywordPrefixParams__Output as _qdrant_KeywordPrefixParams__Output } from '../qdrant/KeywordPrefixParams.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface KeywordIndexParams {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'prefix'?: (_qdrant_KeywordPrefixParams | null);
  'memory'?: (_qdrant_Memory);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_prefix'?: "prefix";
  '_memory'?: "memory";
}

export interface KeywordIndexParams__Output {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  'enable_hnsw'?: (boolean);
  'prefix'?: (_qdrant_KeywordPrefixParams__Output);
  'memory'?: (_qdrant_Memory__Output);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
  '_enable_hnsw'?: "enable_hnsw";
  '_prefix'?: "prefix";
  '_memory'?: "memory";
}
