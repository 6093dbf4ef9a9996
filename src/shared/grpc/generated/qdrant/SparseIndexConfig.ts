// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface SparseIndexConfig {
  'full_scan_threshold'?: (number | string | Long);
  'on_disk'?: (boolean);
  '_full_scan_threshold'?: "full_scan_threshold";
  '_on_disk'?: "on_disk";
}

export interface SparseIndexConfig__Output {
  'full_scan_threshold'?: (string);
  'on_disk'?: (boolean);
  '_full_scan_threshold'?: "full_scan_threshold";
  '_on_disk'?: "on_disk";
}
