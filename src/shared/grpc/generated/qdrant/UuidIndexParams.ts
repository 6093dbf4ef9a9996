// Original file: proto/collections.proto


export interface UuidIndexParams {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
}

export interface UuidIndexParams__Output {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
}
