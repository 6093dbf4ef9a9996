// Original file: proto/points.proto


export interface UpdateBatchPoints {
  'collection_name'?: (string);
}

export interface UpdateBatchPoints__Output {
  'collection_name'?: (string);
}
