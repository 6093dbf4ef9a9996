// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface OptimizersConfigDiff {
  'deleted_threshold'?: (number | string);
  'vacuum_min_vector_number'?: (number | string | Long);
  'default_segment_number'?: (number | string | Long);
  'max_segment_size'?: (number | string | Long);
  'memmap_threshold'?: (number | string | Long);
  'indexing_threshold'?: (number | string | Long);
  'flush_interval_sec'?: (number | string | Long);
  '_deleted_threshold'?: "deleted_threshold";
  '_vacuum_min_vector_number'?: "vacuum_min_vector_number";
  '_default_segment_number'?: "default_segment_number";
  '_max_segment_size'?: "max_segment_size";
  '_memmap_threshold'?: "memmap_threshold";
  '_indexing_threshold'?: "indexing_threshold";
  '_flush_interval_sec'?: "flush_interval_sec";
}

export interface OptimizersConfigDiff__Output {
  'deleted_threshold'?: (number);
  'vacuum_min_vector_number'?: (string);
  'default_segment_number'?: (string);
  'max_segment_size'?: (string);
  'memmap_threshold'?: (string);
  'indexing_threshold'?: (string);
  'flush_interval_sec'?: (string);
  '_deleted_threshold'?: "deleted_threshold";
  '_vacuum_min_vector_number'?: "vacuum_min_vector_number";
  '_default_segment_number'?: "default_segment_number";
  '_max_segment_size'?: "max_segment_size";
  '_memmap_threshold'?: "memmap_threshold";
  '_indexing_threshold'?: "indexing_threshold";
  '_flush_interval_sec'?: "flush_interval_sec";
}
