// Original file: proto/collections.proto


export interface FloatIndexParams {
  'on_disk'?: (boolean);
  'is_principal'?: (boolean);
  '_on_disk'?: "on_disk";
  '_is_principal'?: "is_principal";
}

export interface FloatIndexParams__Output {
  'on_disk'?: (boolean);
  'is_principal'?: (boolean);
  '_on_disk'?: "on_disk";
  '_is_principal'?: "is_principal";
}
