// Original file: proto/collections.proto


export interface DeleteAlias {
  'alias_name'?: (string);
}

export interface DeleteAlias__Output {
  'alias_name'?: (string);
}
