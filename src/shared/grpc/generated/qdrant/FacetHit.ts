// Original file: proto/points.proto

import type { FacetValue as _qdrant_FacetValue, FacetValue__Output as _qdrant_FacetValue__Output } from '../qdrant/FacetValue.js';
import type { Long } from '@grpc/proto-loader';

export interface FacetHit {
  'value'?: (_qdrant_FacetValue | null);
  'count'?: (number | string | Long);
}

export interface FacetHit__Output {
  'value'?: (_qdrant_FacetValue__Output);
  'count'?: (string);
}
