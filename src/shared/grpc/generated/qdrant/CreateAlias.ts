// Original file: proto/collections.proto


export interface CreateAlias {
  'collection_name'?: (string);
  'alias_name'?: (string);
}

export interface CreateAlias__Output {
  'collection_name'?: (string);
  'alias_name'?: (string);
}
