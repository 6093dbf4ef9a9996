// Original file: proto/collections.proto


export interface CollectionClusterInfoRequest {
  'collection_name'?: (string);
}

export interface CollectionClusterInfoRequest__Output {
  'collection_name'?: (string);
}
