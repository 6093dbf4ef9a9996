// Original file: proto/collections.proto


export interface AliasDescription {
  'alias_name'?: (string);
  'collection_name'?: (string);
}

export interface AliasDescription__Output {
  'alias_name'?: (string);
  'collection_name'?: (string);
}
