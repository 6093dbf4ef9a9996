// Original file: proto/points.proto


export interface PayloadIncludeSelector {
  'fields'?: (string)[];
}

export interface PayloadIncludeSelector__Output {
  'fields': (string)[];
}
