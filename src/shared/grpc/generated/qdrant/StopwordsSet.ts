// Original file: proto/collections.proto


export interface StopwordsSet {
  'languages'?: (string)[];
  'custom'?: (string)[];
}

export interface StopwordsSet__Output {
  'languages': (string)[];
  'custom': (string)[];
}
