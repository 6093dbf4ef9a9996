// Original file: proto/collections.proto


export interface CollectionDescription {
  'name'?: (string);
}

export interface CollectionDescription__Output {
  'name'?: (string);
}
