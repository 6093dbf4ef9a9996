// Original file: proto/json_with_int.proto

import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface ListValue {
  'values'?: (_qdrant_Value)[];
}

export interface ListValue__Output {
  'values': (_qdrant_Value__Output)[];
}
