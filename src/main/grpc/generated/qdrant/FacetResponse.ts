// Original file: proto/points.proto


export interface FacetResponse {
  'time'?: (number | string);
}

export interface FacetResponse__Output {
  'time'?: (number);
}
