// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';

export interface PointsIdsList {
  'ids'?: (_qdrant_PointId)[];
}

export interface PointsIdsList__Output {
  'ids': (_qdrant_PointId__Output)[];
}
