// Original file: proto/collections.proto

import type { BinaryQuantizationEncoding as _qdrant_BinaryQuantizationEncoding, BinaryQuantizationEncoding__Output as _qdrant_BinaryQuantizationEncoding__Output } from '../qdrant/BinaryQuantizationEncoding.js';
import type { BinaryQuantizationQueryEncoding as _qdrant_BinaryQuantizationQueryEncoding, BinaryQuantizationQueryEncoding__Output as _qdrant_BinaryQuantizationQueryEncoding__Output } from '../qdrant/BinaryQuantizationQueryEncoding.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';

export interface BinaryQuantization {
  'always_ram'?: (boolean);
  'encoding'?: (_qdrant_BinaryQuantizationEncoding);
  'query_encoding'?: (_qdrant_BinaryQuantizationQueryEncoding | null);
  'memory'?: (_qdrant_Memory);
  '_always_ram'?: "always_ram";
  '_encoding'?: "encoding";
  '_query_encoding'?: "query_encoding";
  '_memory'?: "memory";
}

export interface BinaryQuantization__Output {
  'always_ram'?: (boolean);
  'encoding'?: (_qdrant_BinaryQuantizationEncoding__Output);
  'query_encoding'?: (_qdrant_BinaryQuantizationQueryEncoding__Output);
  'memory'?: (_qdrant_Memory__Output);
  '_always_ram'?: "always_ram";
  '_encoding'?: "encoding";
  '_query_encoding'?: "query_encoding";
  '_memory'?: "memory";
}
