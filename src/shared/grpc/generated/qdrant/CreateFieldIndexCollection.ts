// Original file: proto/points.proto

import type { FieldType as _qdrant_FieldType, FieldType__Output as _qdrant_FieldType__Output } from '../qdrant/FieldType.js';
import type { PayloadIndexParams as _qdrant_PayloadIndexParams, PayloadIndexParams__Output as _qdrant_PayloadIndexParams__Output } from '../qdrant/PayloadIndexParams.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateFieldIndexCollection {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'field_name'?: (string);
  'field_type'?: (_qdrant_FieldType);
  'field_index_params'?: (_qdrant_PayloadIndexParams | null);
  'ordering'?: (_qdrant_WriteOrdering | null);
  'timeout'?: (number | string | Long);
  '_wait'?: "wait";
  '_field_type'?: "field_type";
  '_field_index_params'?: "field_index_params";
  '_ordering'?: "ordering";
  '_timeout'?: "timeout";
}

export interface CreateFieldIndexCollection__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'field_name'?: (string);
  'field_type'?: (_qdrant_FieldType__Output);
  'field_index_params'?: (_qdrant_PayloadIndexParams__Output);
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'timeout'?: (string);
  '_wait'?: "wait";
  '_field_type'?: "field_type";
  '_field_index_params'?: "field_index_params";
  '_ordering'?: "ordering";
  '_timeout'?: "timeout";
}
