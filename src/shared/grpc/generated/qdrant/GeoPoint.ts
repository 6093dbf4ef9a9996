// Original file: proto/qdrant_common.proto


export interface GeoPoint {
  'lon'?: (number | string);
  'lat'?: (number | string);
}

export interface GeoPoint__Output {
  'lon'?: (number);
  'lat'?: (number);
}
