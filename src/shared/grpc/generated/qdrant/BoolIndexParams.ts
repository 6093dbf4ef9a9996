// Original file: proto/collections.proto


export interface BoolIndexParams {
  'on_disk'?: (boolean);
  '_on_disk'?: "on_disk";
}

export interface BoolIndexParams__Output {
  'on_disk'?: (boolean);
  '_on_disk'?: "on_disk";
}
