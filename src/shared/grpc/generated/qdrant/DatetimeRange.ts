// Original file: proto/qdrant_common.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../google/protobuf/Timestamp.js';

export interface DatetimeRange {
  'lt'?: (_google_protobuf_Timestamp | null);
  'gt'?: (_google_protobuf_Timestamp | null);
  'gte'?: (_google_protobuf_Timestamp | null);
  'lte'?: (_google_protobuf_Timestamp | null);
  '_lt'?: "lt";
  '_gt'?: "gt";
  '_gte'?: "gte";
  '_lte'?: "lte";
}

export interface DatetimeRange__Output {
  'lt'?: (_google_protobuf_Timestamp__Output);
  'gt'?: (_google_protobuf_Timestamp__Output);
  'gte'?: (_google_protobuf_Timestamp__Output);
  'lte'?: (_google_protobuf_Timestamp__Output);
  '_lt'?: "lt";
  '_gt'?: "gt";
  '_gte'?: "gte";
  '_lte'?: "lte";
}
