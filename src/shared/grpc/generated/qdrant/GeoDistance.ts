// Original file: proto/points.proto

import type { GeoPoint as _qdrant_GeoPoint, GeoPoint__Output as _qdrant_GeoPoint__Output } from '../qdrant/GeoPoint.js';

export interface GeoDistance {
  'origin'?: (_qdrant_GeoPoint | null);
  'to'?: (string);
}

export interface GeoDistance__Output {
  'origin'?: (_qdrant_GeoPoint__Output);
  'to'?: (string);
}
