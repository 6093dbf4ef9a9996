// Original file: proto/points.proto


export interface CreateVectorNameRequest {
  'collection_name'?: (string);
}

export interface CreateVectorNameRequest__Output {
  'collection_name'?: (string);
}
