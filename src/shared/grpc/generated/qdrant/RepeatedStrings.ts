// Original file: proto/qdrant_common.proto


export interface RepeatedStrings {
  'strings'?: (string)[];
}

export interface RepeatedStrings__Output {
  'strings': (string)[];
}
