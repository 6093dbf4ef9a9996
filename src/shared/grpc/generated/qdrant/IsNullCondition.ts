// Original file: proto/qdrant_common.proto


export interface IsNullCondition {
  'key'?: (string);
}

export interface IsNullCondition__Output {
  'key'?: (string);
}
