// Original file: proto/points.proto


export interface DenseVector {
  'data'?: (number | string)[];
}

export interface DenseVector__Output {
  'data': (number)[];
}
