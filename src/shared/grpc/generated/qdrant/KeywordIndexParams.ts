// Original file: proto/collections.proto


export interface KeywordIndexParams {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
}

export interface KeywordIndexParams__Output {
  'is_tenant'?: (boolean);
  'on_disk'?: (boolean);
  '_is_tenant'?: "is_tenant";
  '_on_disk'?: "on_disk";
}
