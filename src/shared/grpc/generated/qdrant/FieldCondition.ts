// Original file: proto/qdrant_common.proto

import type { Match as _qdrant_Match, Match__Output as _qdrant_Match__Output } from '../qdrant/Match.js';
import type { Range as _qdrant_Range, Range__Output as _qdrant_Range__Output } from '../qdrant/Range.js';
import type { GeoBoundingBox as _qdrant_GeoBoundingBox, GeoBoundingBox__Output as _qdrant_GeoBoundingBox__Output } from '../qdrant/GeoBoundingBox.js';
import type { GeoRadius as _qdrant_GeoRadius, GeoRadius__Output as _qdrant_GeoRadius__Output } from '../qdrant/GeoRadius.js';
import type { ValuesCount as _qdrant_ValuesCount, ValuesCount__Output as _qdrant_ValuesCount__Output } from '../qdrant/ValuesCount.js';
import type { GeoPolygon as _qdrant_GeoPolygon, GeoPolygon__Output as _qdrant_GeoPolygon__Output } from '../qdrant/GeoPolygon.js';
import type { DatetimeRange as _qdrant_DatetimeRange, DatetimeRange__Output as _qdrant_DatetimeRange__Output } from '../qdrant/DatetimeRange.js';

export interface FieldCondition {
  'key'?: (string);
  'match'?: (_qdrant_Match | null);
  'range'?: (_qdrant_Range | null);
  'geo_bounding_box'?: (_qdrant_GeoBoundingBox | null);
  'geo_radius'?: (_qdrant_GeoRadius | null);
  'values_count'?: (_qdrant_ValuesCount | null);
  'geo_polygon'?: (_qdrant_GeoPolygon | null);
  'datetime_range'?: (_qdrant_DatetimeRange | null);
  'is_empty'?: (boolean);
  'is_null'?: (boolean);
  '_is_empty'?: "is_empty";
  '_is_null'?: "is_null";
}

export interface FieldCondition__Output {
  'key'?: (string);
  'match'?: (_qdrant_Match__Output);
  'range'?: (_qdrant_Range__Output);
  'geo_bounding_box'?: (_qdrant_GeoBoundingBox__Output);
  'geo_radius'?: (_qdrant_GeoRadius__Output);
  'values_count'?: (_qdrant_ValuesCount__Output);
  'geo_polygon'?: (_qdrant_GeoPolygon__Output);
  'datetime_range'?: (_qdrant_DatetimeRange__Output);
  'is_empty'?: (boolean);
  'is_null'?: (boolean);
  '_is_empty'?: "is_empty";
  '_is_null'?: "is_null";
}
