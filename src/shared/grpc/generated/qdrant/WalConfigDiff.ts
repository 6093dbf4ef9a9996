// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

export interface WalConfigDiff {
  'wal_capacity_mb'?: (number | string | Long);
  'wal_segments_ahead'?: (number | string | Long);
  'wal_retain_closed'?: (number | string | Long);
  '_wal_capacity_mb'?: "wal_capacity_mb";
  '_wal_segments_ahead'?: "wal_segments_ahead";
  '_wal_retain_closed'?: "wal_retain_closed";
}

export interface WalConfigDiff__Output {
  'wal_capacity_mb'?: (string);
  'wal_segments_ahead'?: (string);
  'wal_retain_closed'?: (string);
  '_wal_capacity_mb'?: "wal_capacity_mb";
  '_wal_segments_ahead'?: "wal_segments_ahead";
  '_wal_retain_closed'?: "wal_retain_closed";
}
