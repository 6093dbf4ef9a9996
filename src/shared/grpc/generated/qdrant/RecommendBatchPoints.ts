// Original file: proto/points.proto


export interface RecommendBatchPoints {
  'collection_name'?: (string);
}

export interface RecommendBatchPoints__Output {
  'collection_name'?: (string);
}
