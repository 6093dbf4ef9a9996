// Original file: proto/collections.proto

import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';
import type { Long } from '@grpc/proto-loader';

export interface HnswConfigDiff {
  'm'?: (number | string | Long);
  'ef_construct'?: (number | string | Long);
  'full_scan_threshold'?: (number | string | Long);
  'max_indexing_threads'?: (number | string | Long);
  'on_disk'?: (boolean);
  'payload_m'?: (number | string | Long);
  'inline_storage'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_m'?: "m";
  '_ef_construct'?: "ef_construct";
  '_full_scan_threshold'?: "full_scan_threshold";
  '_max_indexing_threads'?: "max_indexing_threads";
  '_on_disk'?: "on_disk";
  '_payload_m'?: "payload_m";
  '_inline_storage'?: "inline_storage";
  '_memory'?: "memory";
}

export interface HnswConfigDiff__Output {
  'm'?: (string);
  'ef_construct'?: (string);
  'full_scan_threshold'?: (string);
  'max_indexing_threads'?: (string);
  'on_disk'?: (boolean);
  'payload_m'?: (string);
  'inline_storage'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_m'?: "m";
  '_ef_construct'?: "ef_construct";
  '_full_scan_threshold'?: "full_scan_threshold";
  '_max_indexing_threads'?: "max_indexing_threads";
  '_on_disk'?: "on_disk";
  '_payload_m'?: "payload_m";
  '_inline_storage'?: "inline_storage";
  '_memory'?: "memory";
}
