// Original file: proto/collections.proto

import type { Datatype as _qdrant_Datatype, Datatype__Output as _qdrant_Datatype__Output } from '../qdrant/Datatype.js';
import type { Long } from '@grpc/proto-loader';

export interface SparseIndexConfig {
  'full_scan_threshold'?: (number | string | Long);
  'on_disk'?: (boolean);
  'datatype'?: (_qdrant_Datatype);
  '_full_scan_threshold'?: "full_scan_threshold";
  '_on_disk'?: "on_disk";
  '_datatype'?: "datatype";
}

export interface SparseIndexConfig__Output {
  'full_scan_threshold'?: (string);
  'on_disk'?: (boolean);
  'datatype'?: (_qdrant_Datatype__Output);
  '_full_scan_threshold'?: "full_scan_threshold";
  '_on_disk'?: "on_disk";
  '_datatype'?: "datatype";
}
