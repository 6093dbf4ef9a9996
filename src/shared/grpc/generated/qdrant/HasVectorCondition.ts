// Original file: proto/qdrant_common.proto


export interface HasVectorCondition {
  'has_vector'?: (string);
}

export interface HasVectorCondition__Output {
  'has_vector'?: (string);
}
