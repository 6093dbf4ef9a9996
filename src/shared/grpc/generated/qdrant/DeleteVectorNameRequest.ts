// Original file: proto/points.proto


export interface DeleteVectorNameRequest {
  'collection_name'?: (string);
}

export interface DeleteVectorNameRequest__Output {
  'collection_name'?: (string);
}
