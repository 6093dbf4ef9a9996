// Original file: proto/collections.proto


export interface CreateShardKeyRequest {
  'collection_name'?: (string);
}

export interface CreateShardKeyRequest__Output {
  'collection_name'?: (string);
}
