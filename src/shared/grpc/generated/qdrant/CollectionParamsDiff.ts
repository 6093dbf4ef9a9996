// Original file: proto/collections.proto

import type { PayloadStorageParams as _qdrant_PayloadStorageParams, PayloadStorageParams__Output as _qdrant_PayloadStorageParams__Output } from '../qdrant/PayloadStorageParams.js';
import type { Long } from '@grpc/proto-loader';

export interface CollectionParamsDiff {
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'on_disk_payload'?: (boolean);
  'read_fan_out_factor'?: (number);
  'read_fan_out_delay_ms'?: (number | string | Long);
  'payload'?: (_qdrant_PayloadStorageParams | null);
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_on_disk_payload'?: "on_disk_payload";
  '_read_fan_out_factor'?: "read_fan_out_factor";
  '_read_fan_out_delay_ms'?: "read_fan_out_delay_ms";
  '_payload'?: "payload";
}

export interface CollectionParamsDiff__Output {
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'on_disk_payload'?: (boolean);
  'read_fan_out_factor'?: (number);
  'read_fan_out_delay_ms'?: (string);
  'payload'?: (_qdrant_PayloadStorageParams__Output);
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_on_disk_payload'?: "on_disk_payload";
  '_read_fan_out_factor'?: "read_fan_out_factor";
  '_read_fan_out_delay_ms'?: "read_fan_out_delay_ms";
  '_payload'?: "payload";
}
