// Original file: proto/collections.proto


export interface CollectionParamsDiff {
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'on_disk_payload'?: (boolean);
  'read_fan_out_factor'?: (number);
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_on_disk_payload'?: "on_disk_payload";
  '_read_fan_out_factor'?: "read_fan_out_factor";
}

export interface CollectionParamsDiff__Output {
  'replication_factor'?: (number);
  'write_consistency_factor'?: (number);
  'on_disk_payload'?: (boolean);
  'read_fan_out_factor'?: (number);
  '_replication_factor'?: "replication_factor";
  '_write_consistency_factor'?: "write_consistency_factor";
  '_on_disk_payload'?: "on_disk_payload";
  '_read_fan_out_factor'?: "read_fan_out_factor";
}
