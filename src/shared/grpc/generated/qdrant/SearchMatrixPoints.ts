// Original file: proto/points.proto


export interface SearchMatrixPoints {
  'collection_name'?: (string);
}

export interface SearchMatrixPoints__Output {
  'collection_name'?: (string);
}
