// Original file: proto/points.proto

import type { UpdateStatus as _qdrant_UpdateStatus, UpdateStatus__Output as _qdrant_UpdateStatus__Output } from '../qdrant/UpdateStatus.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateResult {
  'operation_id'?: (number | string | Long);
  'status'?: (_qdrant_UpdateStatus);
  '_operation_id'?: "operation_id";
}

export interface UpdateResult__Output {
  'operation_id'?: (string);
  'status'?: (_qdrant_UpdateStatus__Output);
  '_operation_id'?: "operation_id";
}
