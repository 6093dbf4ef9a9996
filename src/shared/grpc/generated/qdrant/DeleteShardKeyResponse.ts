// Original file: proto/collections.proto


export interface DeleteShardKeyResponse {
  'result'?: (boolean);
  'time'?: (number | string);
}

export interface DeleteShardKeyResponse__Output {
  'result'?: (boolean);
  'time'?: (number);
}
