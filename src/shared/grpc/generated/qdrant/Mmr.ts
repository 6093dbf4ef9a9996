// Original file: proto/points.proto


export interface Mmr {
  'diversity'?: (number | string);
  'candidates_limit'?: (number);
  '_diversity'?: "diversity";
  '_candidates_limit'?: "candidates_limit";
}

export interface Mmr__Output {
  'diversity'?: (number);
  'candidates_limit'?: (number);
  '_diversity'?: "diversity";
  '_candidates_limit'?: "candidates_limit";
}
