// Original file: proto/collections.proto

import type { Datatype as _qdrant_Datatype, Datatype__Output as _qdrant_Datatype__Output } from '../qdrant/Datatype.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';
import type { Long } from '@grpc/proto-loader';

export interface SparseIndexConfig {
  'full_scan_threshold'?: (number | string | Long);
  'on_disk'?: (boolean);
  'datatype'?: (_qdrant_Datatype);
  'memory'?: (_qdrant_Memory);
  '_full_scan_threshold'?: "full_scan_threshold";
  '_on_disk'?: "on_disk";
  '_datatype'?: "datatype";
  '_memory'?: "memory";
}

export interface SparseIndexConfig__Output {
  'full_scan_threshold'?: (string);
  'on_disk'?: (boolean);
  'datatype'?: (_qdrant_Datatype__Output);
  'memory'?: (_qdrant_Memory__Output);
  '_full_scan_threshold'?: "full_scan_threshold";
  '_on_disk'?: "on_disk";
  '_datatype'?: "datatype";
  '_memory'?: "memory";
}
