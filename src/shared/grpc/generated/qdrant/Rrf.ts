// Original file: proto/points.proto


export interface Rrf {
  'k'?: (number);
  'weights'?: (number | string)[];
  '_k'?: "k";
}

export interface Rrf__Output {
  'k'?: (number);
  'weights': (number)[];
  '_k'?: "k";
}
