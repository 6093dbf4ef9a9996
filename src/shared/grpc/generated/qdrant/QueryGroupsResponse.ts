// Original file: proto/points.proto


export interface QueryGroupsResponse {
  'time'?: (number | string);
}

export interface QueryGroupsResponse__Output {
  'time'?: (number);
}
