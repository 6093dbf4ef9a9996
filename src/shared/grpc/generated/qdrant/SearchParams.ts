// Original file: proto/points.proto

import type { QuantizationSearchParams as _qdrant_QuantizationSearchParams, QuantizationSearchParams__Output as _qdrant_QuantizationSearchParams__Output } from '../qdrant/QuantizationSearchParams.js';
import type { AcornSearchParams as _qdrant_AcornSearchParams, AcornSearchParams__Output as _qdrant_AcornSearchParams__Output } from '../qdrant/AcornSearchParams.js';
import type { Long } from '@grpc/proto-loader';

export interface SearchParams {
  'hnsw_ef'?: (number | string | Long);
  'exact'?: (boolean);
  'quantization'?: (_qdrant_QuantizationSearchParams | null);
  'indexed_only'?: (boolean);
  'acorn'?: (_qdrant_AcornSearchParams | null);
  '_hnsw_ef'?: "hnsw_ef";
  '_exact'?: "exact";
  '_quantization'?: "quantization";
  '_indexed_only'?: "indexed_only";
  '_acorn'?: "acorn";
}

export interface SearchParams__Output {
  'hnsw_ef'?: (string);
  'exact'?: (boolean);
  'quantization'?: (_qdrant_QuantizationSearchParams__Output);
  'indexed_only'?: (boolean);
  'acorn'?: (_qdrant_AcornSearchParams__Output);
  '_hnsw_ef'?: "hnsw_ef";
  '_exact'?: "exact";
  '_quantization'?: "quantization";
  '_indexed_only'?: "indexed_only";
  '_acorn'?: "acorn";
}
