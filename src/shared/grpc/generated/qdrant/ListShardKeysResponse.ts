// Original file: proto/collections.proto


export interface ListShardKeysResponse {
  'time'?: (number | string);
}

export interface ListShardKeysResponse__Output {
  'time'?: (number);
}
