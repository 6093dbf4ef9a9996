// Original file: proto/collections.proto


export interface GetCollectionInfoRequest {
  'collection_name'?: (string);
}

export interface GetCollectionInfoRequest__Output {
  'collection_name'?: (string);
}
