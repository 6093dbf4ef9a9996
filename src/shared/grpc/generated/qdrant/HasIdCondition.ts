// Original file: proto/qdrant_common.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';

export interface HasIdCondition {
  'has_id'?: (_qdrant_PointId)[];
}

export interface HasIdCondition__Output {
  'has_id': (_qdrant_PointId__Output)[];
}
