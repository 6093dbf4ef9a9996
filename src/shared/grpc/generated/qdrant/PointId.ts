// Original file: proto/qdrant_common.proto

import type { Long } from '@grpc/proto-loader';

export interface PointId {
  'num'?: (number | string | Long);
  'uuid'?: (string);
  'point_id_options'?: "num"|"uuid";
}

export interface PointId__Output {
  'num'?: (string);
  'uuid'?: (string);
  'point_id_options'?: "num"|"uuid";
}
