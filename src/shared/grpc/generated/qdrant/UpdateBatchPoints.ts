// Original file: proto/points.proto

import type { PointsUpdateOperation as _qdrant_PointsUpdateOperation, PointsUpdateOperation__Output as _qdrant_PointsUpdateOperation__Output } from '../qdrant/PointsUpdateOperation.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { Long } from '@grpc/proto-loader';

export interface UpdateBatchPoints {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'operations'?: (_qdrant_PointsUpdateOperation)[];
  'ordering'?: (_qdrant_WriteOrdering | null);
  'timeout'?: (number | string | Long);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_timeout'?: "timeout";
}

export interface UpdateBatchPoints__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'operations': (_qdrant_PointsUpdateOperation__Output)[];
  'ordering'?: (_qdrant_WriteOrdering__Output);
  'timeout'?: (string);
  '_wait'?: "wait";
  '_ordering'?: "ordering";
  '_timeout'?: "timeout";
}
