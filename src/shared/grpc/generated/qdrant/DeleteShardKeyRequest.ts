// Original file: proto/collections.proto


export interface DeleteShardKeyRequest {
  'collection_name'?: (string);
}

export interface DeleteShardKeyRequest__Output {
  'collection_name'?: (string);
}
