// Original file: proto/points.proto


export interface DiscoverBatchPoints {
  'collection_name'?: (string);
}

export interface DiscoverBatchPoints__Output {
  'collection_name'?: (string);
}
