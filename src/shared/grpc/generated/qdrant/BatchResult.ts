// Original file: proto/points.proto

import type { ScoredPoint as _qdrant_ScoredPoint, ScoredPoint__Output as _qdrant_ScoredPoint__Output } from '../qdrant/ScoredPoint.js';

export interface BatchResult {
  'result'?: (_qdrant_ScoredPoint)[];
}

export interface BatchResult__Output {
  'result': (_qdrant_ScoredPoint__Output)[];
}
