// Original file: proto/points.proto

import type { FacetHit as _qdrant_FacetHit, FacetHit__Output as _qdrant_FacetHit__Output } from '../qdrant/FacetHit.js';

export interface FacetResponse {
  'hits'?: (_qdrant_FacetHit)[];
  'time'?: (number | string);
}

export interface FacetResponse__Output {
  'hits': (_qdrant_FacetHit__Output)[];
  'time'?: (number);
}
