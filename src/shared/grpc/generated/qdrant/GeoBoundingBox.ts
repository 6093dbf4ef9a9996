// Original file: proto/qdrant_common.proto

import type { GeoPoint as _qdrant_GeoPoint, GeoPoint__Output as _qdrant_GeoPoint__Output } from '../qdrant/GeoPoint.js';

export interface GeoBoundingBox {
  'top_left'?: (_qdrant_GeoPoint | null);
  'bottom_right'?: (_qdrant_GeoPoint | null);
}

export interface GeoBoundingBox__Output {
  'top_left'?: (_qdrant_GeoPoint__Output);
  'bottom_right'?: (_qdrant_GeoPoint__Output);
}
