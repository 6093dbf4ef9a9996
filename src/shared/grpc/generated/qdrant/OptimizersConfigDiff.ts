// Original file: proto/collections.proto

import type { MaxOptimizationThreads as _qdrant_MaxOptimizationThreads, MaxOptimizationThreads__Output as _qdrant_MaxOptimizationThreads__Output } from '../qdrant/MaxOptimizationThreads.js';
import type { Long } from '@grpc/proto-loader';

export interface OptimizersConfigDiff {
  'deleted_threshold'?: (number | string);
  'vacuum_min_vector_number'?: (number | string | Long);
  'default_segment_number'?: (number | string | Long);
  'max_segment_size'?: (number | string | Long);
  'memmap_threshold'?: (number | string | Long);
  'indexing_threshold'?: (number | string | Long);
  'flush_interval_sec'?: (number | string | Long);
  'deprecated_max_optimization_threads'?: (number | string | Long);
  'max_optimization_threads'?: (_qdrant_MaxOptimizationThreads | null);
  'prevent_unoptimized'?: (boolean);
  '_deleted_threshold'?: "deleted_threshold";
  '_vacuum_min_vector_number'?: "vacuum_min_vector_number";
  '_default_segment_number'?: "default_segment_number";
  '_max_segment_size'?: "max_segment_size";
  '_memmap_threshold'?: "memmap_threshold";
  '_indexing_threshold'?: "indexing_threshold";
  '_flush_interval_sec'?: "flush_interval_sec";
  '_deprecated_max_optimization_threads'?: "deprecated_max_optimization_threads";
  '_max_optimization_threads'?: "max_optimization_threads";
  '_prevent_unoptimized'?: "prevent_unoptimized";
}

export interface OptimizersConfigDiff__Output {
  'deleted_threshold'?: (number);
  'vacuum_min_vector_number'?: (string);
  'default_segment_number'?: (string);
  'max_segment_size'?: (string);
  'memmap_threshold'?: (string);
  'indexing_threshold'?: (string);
  'flush_interval_sec'?: (string);
  'deprecated_max_optimization_threads'?: (string);
  'max_optimization_threads'?: (_qdrant_MaxOptimizationThreads__Output);
  'prevent_unoptimized'?: (boolean);
  '_deleted_threshold'?: "deleted_threshold";
  '_vacuum_min_vector_number'?: "vacuum_min_vector_number";
  '_default_segment_number'?: "default_segment_number";
  '_max_segment_size'?: "max_segment_size";
  '_memmap_threshold'?: "memmap_threshold";
  '_indexing_threshold'?: "indexing_threshold";
  '_flush_interval_sec'?: "flush_interval_sec";
  '_deprecated_max_optimization_threads'?: "deprecated_max_optimization_threads";
  '_max_optimization_threads'?: "max_optimization_threads";
  '_prevent_unoptimized'?: "prevent_unoptimized";
}
