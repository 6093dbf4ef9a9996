// Original file: proto/points.proto


export interface QueryPointGroups {
  'collection_name'?: (string);
}

export interface QueryPointGroups__Output {
  'collection_name'?: (string);
}
