// Original file: proto/points.proto


export interface NaiveFeedbackStrategy {
  'a'?: (number | string);
  'b'?: (number | string);
  'c'?: (number | string);
}

export interface NaiveFeedbackStrategy__Output {
  'a'?: (number);
  'b'?: (number);
  'c'?: (number);
}
