// Original file: proto/collections.proto


export interface CollectionExistsRequest {
  'collection_name'?: (string);
}

export interface CollectionExistsRequest__Output {
  'collection_name'?: (string);
}
