// Original file: proto/points.proto


export interface SparseIndices {
  'data'?: (number)[];
}

export interface SparseIndices__Output {
  'data': (number)[];
}
