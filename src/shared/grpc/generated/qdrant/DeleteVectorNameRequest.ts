// Original file: proto/points.proto

import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { Long } from '@grpc/proto-loader';

export interface DeleteVectorNameRequest {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'vector_name'?: (string);
  'timeout'?: (number | string | Long);
  'ordering'?: (_qdrant_WriteOrdering | null);
  '_wait'?: "wait";
  '_timeout'?: "timeout";
  '_ordering'?: "ordering";
}

export interface DeleteVectorNameRequest__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'vector_name'?: (string);
  'timeout'?: (string);
  'ordering'?: (_qdrant_WriteOrdering__Output);
  '_wait'?: "wait";
  '_timeout'?: "timeout";
  '_ordering'?: "ordering";
}
