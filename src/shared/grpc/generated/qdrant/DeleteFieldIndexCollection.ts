// Original file: proto/points.proto

import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { Long } from '@grpc/proto-loader';

export interface DeleteFieldIndexCollection {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'field_name'?: (string);
  'ordering'?: (_qdrant_WriteOrdering | null);
  'timeout'?: (number | string | Long);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_timeout'?: "timeout";
}

export interface DeleteFieldIndexCollection__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'field_name'?: (string);
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'timeout'?: (string);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_timeout'?: "timeout";
}
