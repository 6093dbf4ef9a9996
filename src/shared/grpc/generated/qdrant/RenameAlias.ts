// Original file: proto/collections.proto


export interface RenameAlias {
  'old_alias_name'?: (string);
  'new_alias_name'?: (string);
}

export interface RenameAlias__Output {
  'old_alias_name'?: (string);
  'new_alias_name'?: (string);
}
