// Original file: proto/points.proto


export interface SearchPointGroups {
  'collection_name'?: (string);
}

export interface SearchPointGroups__Output {
  'collection_name'?: (string);
}
