// Original file: proto/collections.proto


export interface IntegerIndexParams {
  'lookup'?: (boolean);
  'range'?: (boolean);
  'is_principal'?: (boolean);
  'on_disk'?: (boolean);
  '_lookup'?: "lookup";
  '_range'?: "range";
  '_is_principal'?: "is_principal";
  '_on_disk'?: "on_disk";
}

export interface IntegerIndexParams__Output {
  'lookup'?: (boolean);
  'range'?: (boolean);
  'is_principal'?: (boolean);
  'on_disk'?: (boolean);
  '_lookup'?: "lookup";
  '_range'?: "range";
  '_is_principal'?: "is_principal";
  '_on_disk'?: "on_disk";
}
