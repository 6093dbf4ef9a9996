// Original file: proto/points.proto

import type { ScoredPoint as _qdrant_ScoredPoint, ScoredPoint__Output as _qdrant_ScoredPoint__Output } from '../qdrant/ScoredPoint.js';

export interface DiscoverResponse {
  'result'?: (_qdrant_ScoredPoint)[];
  'time'?: (number | string);
}

export interface DiscoverResponse__Output {
  'result': (_qdrant_ScoredPoint__Output)[];
  'time'?: (number);
}
