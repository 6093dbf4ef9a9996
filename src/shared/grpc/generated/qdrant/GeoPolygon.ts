// Original file: proto/qdrant_common.proto

import type { GeoLineString as _qdrant_GeoLineString, GeoLineString__Output as _qdrant_GeoLineString__Output } from '../qdrant/GeoLineString.js';

export interface GeoPolygon {
  'exterior'?: (_qdrant_GeoLineString | null);
  'interiors'?: (_qdrant_GeoLineString)[];
}

export interface GeoPolygon__Output {
  'exterior'?: (_qdrant_GeoLineString__Output);
  'interiors': (_qdrant_GeoLineString__Output)[];
}
