// Original file: proto/points.proto


export interface RecommendPointGroups {
  'collection_name'?: (string);
}

export interface RecommendPointGroups__Output {
  'collection_name'?: (string);
}
