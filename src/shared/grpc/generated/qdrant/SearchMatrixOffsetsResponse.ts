// Original file: proto/points.proto


export interface SearchMatrixOffsetsResponse {
  'time'?: (number | string);
}

export interface SearchMatrixOffsetsResponse__Output {
  'time'?: (number);
}
