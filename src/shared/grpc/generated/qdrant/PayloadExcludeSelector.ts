// Original file: proto/points.proto


export interface PayloadExcludeSelector {
  'fields'?: (string)[];
}

export interface PayloadExcludeSelector__Output {
  'fields': (string)[];
}
