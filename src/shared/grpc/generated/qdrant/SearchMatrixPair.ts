// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';

export interface SearchMatrixPair {
  'a'?: (_qdrant_PointId | null);
  'b'?: (_qdrant_PointId | null);
  'score'?: (number | string);
}

export interface SearchMatrixPair__Output {
  'a'?: (_qdrant_PointId__Output);
  'b'?: (_qdrant_PointId__Output);
  'score'?: (number);
}
