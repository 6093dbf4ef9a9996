// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { Vectors as _qdrant_Vectors, Vectors__Output as _qdrant_Vectors__Output } from '../qdrant/Vectors.js';

export interface PointVectors {
  'id'?: (_qdrant_PointId | null);
  'vectors'?: (_qdrant_Vectors | null);
}

export interface PointVectors__Output {
  'id'?: (_qdrant_PointId__Output);
  'vectors'?: (_qdrant_Vectors__Output);
}
