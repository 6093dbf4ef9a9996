// Original file: proto/points.proto


export interface AcornSearchParams {
  'enable'?: (boolean);
  'max_selectivity'?: (number | string);
  '_enable'?: "enable";
  '_max_selectivity'?: "max_selectivity";
}

export interface AcornSearchParams__Output {
  'enable'?: (boolean);
  'max_selectivity'?: (number);
  '_enable'?: "enable";
  '_max_selectivity'?: "max_selectivity";
}
