// Original file: proto/qdrant_common.proto


export interface IsEmptyCondition {
  'key'?: (string);
}

export interface IsEmptyCondition__Output {
  'key'?: (string);
}
