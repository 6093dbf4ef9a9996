// Original file: proto/points.proto

import type { WriteOrderingType as _qdrant_WriteOrderingType, WriteOrderingType__Output as _qdrant_WriteOrderingType__Output } from '../qdrant/WriteOrderingType.js';

export interface WriteOrdering {
  'type'?: (_qdrant_WriteOrderingType);
}

export interface WriteOrdering__Output {
  'type'?: (_qdrant_WriteOrderingType__Output);
}
