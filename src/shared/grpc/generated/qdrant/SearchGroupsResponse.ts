// Original file: proto/points.proto


export interface SearchGroupsResponse {
  'time'?: (number | string);
}

export interface SearchGroupsResponse__Output {
  'time'?: (number);
}
