// Original file: proto/points.proto


export interface SparseVector {
  'values'?: (number | string)[];
  'indices'?: (number)[];
}

export interface SparseVector__Output {
  'values': (number)[];
  'indices': (number)[];
}
