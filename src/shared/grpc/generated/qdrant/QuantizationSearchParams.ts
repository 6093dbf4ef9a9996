// Original file: proto/points.proto


export interface QuantizationSearchParams {
  'ignore'?: (boolean);
  'rescore'?: (boolean);
  'oversampling'?: (number | string);
  '_ignore'?: "ignore";
  '_rescore'?: "rescore";
  '_oversampling'?: "oversampling";
}

export interface QuantizationSearchParams__Output {
  'ignore'?: (boolean);
  'rescore'?: (boolean);
  'oversampling'?: (number);
  '_ignore'?: "ignore";
  '_rescore'?: "rescore";
  '_oversampling'?: "oversampling";
}
