// Original file: proto/collections.proto


export interface ListCollectionAliasesRequest {
  'collection_name'?: (string);
}

export interface ListCollectionAliasesRequest__Output {
  'collection_name'?: (string);
}
