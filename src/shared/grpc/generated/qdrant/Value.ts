// Original file: proto/json_with_int.proto

import type { NullValue as _qdrant_NullValue, NullValue__Output as _qdrant_NullValue__Output } from '../qdrant/NullValue.js';
import type { Struct as _qdrant_Struct, Struct__Output as _qdrant_Struct__Output } from '../qdrant/Struct.js';
import type { ListValue as _qdrant_ListValue, ListValue__Output as _qdrant_ListValue__Output } from '../qdrant/ListValue.js';
import type { Long } from '@grpc/proto-loader';

export interface Value {
  'null_value'?: (_qdrant_NullValue);
  'double_value'?: (number | string);
  'integer_value'?: (number | string | Long);
  'string_value'?: (string);
  'bool_value'?: (boolean);
  'struct_value'?: (_qdrant_Struct | null);
  'list_value'?: (_qdrant_ListValue | null);
  'kind'?: "null_value"|"double_value"|"integer_value"|"string_value"|"bool_value"|"struct_value"|"list_value";
}

export interface Value__Output {
  'null_value'?: (_qdrant_NullValue__Output);
  'double_value'?: (number);
  'integer_value'?: (string);
  'string_value'?: (string);
  'bool_value'?: (boolean);
  'struct_value'?: (_qdrant_Struct__Output);
  'list_value'?: (_qdrant_ListValue__Output);
  'kind'?: "null_value"|"double_value"|"integer_value"|"string_value"|"bool_value"|"struct_value"|"list_value";
}
