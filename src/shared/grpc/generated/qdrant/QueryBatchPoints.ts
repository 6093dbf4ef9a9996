// Original file: proto/points.proto

import type { QueryPoints as _qdrant_QueryPoints, QueryPoints__Output as _qdrant_QueryPoints__Output } from '../qdrant/QueryPoints.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { Long } from '@grpc/proto-loader';

export interface QueryBatchPoints {
  'collection_name'?: (string);
  'query_points'?: (_qdrant_QueryPoints)[];
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'timeout'?: (number | string | Long);
  '_read_consistency'?: "read_consistency";
  '_timeout'?: "timeout";
}

export interface QueryBatchPoints__Output {
  'collection_name'?: (string);
  'query_points': (_qdrant_QueryPoints__Output)[];
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'timeout'?: (string);
  '_read_consistency'?: "read_consistency";
  '_timeout'?: "timeout";
}
