// Original file: proto/collections.proto


export interface CollectionExists {
  'exists'?: (boolean);
}

export interface CollectionExists__Output {
  'exists'?: (boolean);
}
