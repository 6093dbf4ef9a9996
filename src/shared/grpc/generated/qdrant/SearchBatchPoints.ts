// Original file: proto/points.proto

import type { SearchPoints as _qdrant_SearchPoints, SearchPoints__Output as _qdrant_SearchPoints__Output } from '../qdrant/SearchPoints.js';
import type { ReadConsistency as _qdrant_ReadConsistency, ReadConsistency__Output as _qdrant_ReadConsistency__Output } from '../qdrant/ReadConsistency.js';
import type { Long } from '@grpc/proto-loader';

export interface SearchBatchPoints {
  'collection_name'?: (string);
  'search_points'?: (_qdrant_SearchPoints)[];
  'read_consistency'?: (_qdrant_ReadConsistency | null);
  'timeout'?: (number | string | Long);
  '_read_consistency'?: "read_consistency";
  '_timeout'?: "timeout";
}

export interface SearchBatchPoints__Output {
  'collection_name'?: (string);
  'search_points': (_qdrant_SearchPoints__Output)[];
  'read_consistency'?: (_qdrant_ReadConsistency__Output);
  'timeout'?: (string);
  '_read_consistency'?: "read_consistency";
  '_timeout'?: "timeout";
}
