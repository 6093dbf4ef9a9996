// Original file: proto/collections.proto


export interface CreateShardKeyResponse {
  'result'?: (boolean);
  'time'?: (number | string);
}

export interface CreateShardKeyResponse__Output {
  'result'?: (boolean);
  'time'?: (number);
}
