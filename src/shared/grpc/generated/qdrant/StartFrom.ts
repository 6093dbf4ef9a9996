// Original file: proto/points.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../google/protobuf/Timestamp.js';
import type { Long } from '@grpc/proto-loader';

export interface StartFrom {
  'float'?: (number | string);
  'integer'?: (number | string | Long);
  'timestamp'?: (_google_protobuf_Timestamp | null);
  'datetime'?: (string);
  'value'?: "float"|"integer"|"timestamp"|"datetime";
}

export interface StartFrom__Output {
  'float'?: (number);
  'integer'?: (string);
  'timestamp'?: (_google_protobuf_Timestamp__Output);
  'datetime'?: (string);
  'value'?: "float"|"integer"|"timestamp"|"datetime";
}
