// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface HnswConfigDiff {
  'm'?: (number | string | Long);
  'ef_construct'?: (number | string | Long);
  'full_scan_threshold'?: (number | string | Long);
  'max_indexing_threads'?: (number | string | Long);
  'on_disk'?: (boolean);
  'payload_m'?: (number | string | Long);
  '_m'?: "m";
  '_ef_construct'?: "ef_construct";
  '_full_scan_threshold'?: "full_scan_threshold";
  '_max_indexing_threads'?: "max_indexing_threads";
  '_on_disk'?: "on_disk";
  '_payload_m'?: "payload_m";
}

export interface HnswConfigDiff__Output {
  'm'?: (string);
  'ef_construct'?: (string);
  'full_scan_threshold'?: (string);
  'max_indexing_threads'?: (string);
  'on_disk'?: (boolean);
  'payload_m'?: (string);
  '_m'?: "m";
  '_ef_construct'?: "ef_construct";
  '_full_scan_threshold'?: "full_scan_threshold";
  '_max_indexing_threads'?: "max_indexing_threads";
  '_on_disk'?: "on_disk";
  '_payload_m'?: "payload_m";
}
