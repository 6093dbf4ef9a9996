// Original file: proto/points.proto


export interface DiscoverPoints {
  'collection_name'?: (string);
}

export interface DiscoverPoints__Output {
  'collection_name'?: (string);
}
