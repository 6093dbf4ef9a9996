// Original file: proto/qdrant_common.proto

import type { GeoPoint as _qdrant_GeoPoint, GeoPoint__Output as _qdrant_GeoPoint__Output } from '../qdrant/GeoPoint.js';

export interface GeoLineString {
  'points'?: (_qdrant_GeoPoint)[];
}

export interface GeoLineString__Output {
  'points': (_qdrant_GeoPoint__Output)[];
}
