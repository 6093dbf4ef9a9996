// Original file: proto/collections.proto


export interface UpdateCollectionClusterSetupRequest {
  'collection_name'?: (string);
}

export interface UpdateCollectionClusterSetupRequest__Output {
  'collection_name'?: (string);
}
