// Original file: proto/collections.proto


export interface OptimizerStatus {
  'ok'?: (boolean);
  'error'?: (string);
}

export interface OptimizerStatus__Output {
  'ok'?: (boolean);
  'error'?: (string);
}
