// Original file: proto/collections.proto


export interface CollectionOperationResponse {
  'result'?: (boolean);
  'time'?: (number | string);
}

export interface CollectionOperationResponse__Output {
  'result'?: (boolean);
  'time'?: (number);
}
