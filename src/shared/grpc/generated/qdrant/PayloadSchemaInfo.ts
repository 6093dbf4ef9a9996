// Original file: proto/collections.proto

import type { PayloadSchemaType as _qdrant_PayloadSchemaType, PayloadSchemaType__Output as _qdrant_PayloadSchemaType__Output } from '../qdrant/PayloadSchemaType.js';
import type { PayloadIndexParams as _qdrant_PayloadIndexParams, PayloadIndexParams__Output as _qdrant_PayloadIndexParams__Output } from '../qdrant/PayloadIndexParams.js';
import type { Long } from '@grpc/proto-loader';

export interface PayloadSchemaInfo {
  'data_type'?: (_qdrant_PayloadSchemaType);
  'params'?: (_qdrant_PayloadIndexParams | null);
  'points'?: (number | string | Long);
  '_params'?: "params";
  '_points'?: "points";
}

export interface PayloadSchemaInfo__Output {
  'data_type'?: (_qdrant_PayloadSchemaType__Output);
  'params'?: (_qdrant_PayloadIndexParams__Output);
  'points'?: (string);
  '_params'?: "params";
  '_points'?: "points";
}
