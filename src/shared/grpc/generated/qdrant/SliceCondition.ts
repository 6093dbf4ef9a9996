// Original file: proto/qdrant_common.proto


export interface SliceCondition {
  'total'?: (number);
  'index'?: (number);
}

export interface SliceCondition__Output {
  'total'?: (number);
  'index'?: (number);
}
