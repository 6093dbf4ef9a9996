// Original file: proto/points.proto

import type { Long } from '@grpc/proto-loader';

export interface FacetValue {
  'string_value'?: (string);
  'integer_value'?: (number | string | Long);
  'bool_value'?: (boolean);
  'variant'?: "string_value"|"integer_value"|"bool_value";
}

export interface FacetValue__Output {
  'string_value'?: (string);
  'integer_value'?: (string);
  'bool_value'?: (boolean);
  'variant'?: "string_value"|"integer_value"|"bool_value";
}
