// Original file: proto/points.proto


export interface RecommendPoints {
  'collection_name'?: (string);
}

export interface RecommendPoints__Output {
  'collection_name'?: (string);
}
