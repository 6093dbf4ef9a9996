// Original file: proto/points.proto


export interface SearchMatrixPairsResponse {
  'time'?: (number | string);
}

export interface SearchMatrixPairsResponse__Output {
  'time'?: (number);
}
