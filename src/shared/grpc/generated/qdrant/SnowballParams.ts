// Original file: proto/collections.proto


export interface SnowballParams {
  'language'?: (string);
}

export interface SnowballParams__Output {
  'language'?: (string);
}
