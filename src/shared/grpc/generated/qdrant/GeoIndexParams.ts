// Original file: proto/collections.proto


export interface GeoIndexParams {
  'on_disk'?: (boolean);
  '_on_disk'?: "on_disk";
}

export interface GeoIndexParams__Output {
  'on_disk'?: (boolean);
  '_on_disk'?: "on_disk";
}
