// Original file: proto/points.proto


export interface VectorsSelector {
  'names'?: (string)[];
}

export interface VectorsSelector__Output {
  'names': (string)[];
}
