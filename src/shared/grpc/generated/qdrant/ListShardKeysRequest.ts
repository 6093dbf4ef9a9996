// Original file: proto/collections.proto


export interface ListShardKeysRequest {
  'collection_name'?: (string);
}

export interface ListShardKeysRequest__Output {
  'collection_name'?: (string);
}
