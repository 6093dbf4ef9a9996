// Original file: proto/points.proto


export interface RecommendGroupsResponse {
  'time'?: (number | string);
}

export interface RecommendGroupsResponse__Output {
  'time'?: (number);
}
