// Original file: proto/qdrant_common.proto

import type { FieldCondition as _qdrant_FieldCondition, FieldCondition__Output as _qdrant_FieldCondition__Output } from '../qdrant/FieldCondition.js';
import type { IsEmptyCondition as _qdrant_IsEmptyCondition, IsEmptyCondition__Output as _qdrant_IsEmptyCondition__Output } from '../qdrant/IsEmptyCondition.js';
import type { HasIdCondition as _qdrant_HasIdCondition, HasIdCondition__Output as _qdrant_HasIdCondition__Output } from '../qdrant/HasIdCondition.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { IsNullCondition as _qdrant_IsNullCondition, IsNullCondition__Output as _qdrant_IsNullCondition__Output } from '../qdrant/IsNullCondition.js';
import type { NestedCondition as _qdrant_NestedCondition, NestedCondition__Output as _qdrant_NestedCondition__Output } from '../qdrant/NestedCondition.js';
import type { HasVectorCondition as _qdrant_HasVectorCondition, HasVectorCondition__Output as _qdrant_HasVectorCondition__Output } from '../qdrant/HasVectorCondition.js';
import type { SliceCondition as _qdrant_SliceCondition, SliceCondition__Output as _qdrant_SliceCondition__Output } from '../qdrant/SliceCondition.js';

export interface Condition {
  'field'?: (_qdrant_FieldCondition | null);
  'is_empty'?: (_qdrant_IsEmptyCondition | null);
  'has_id'?: (_qdrant_HasIdCondition | null);
  'filter'?: (_qdrant_Filter | null);
  'is_null'?: (_qdrant_IsNullCondition | null);
  'nested'?: (_qdrant_NestedCondition | null);
  'has_vector'?: (_qdrant_HasVectorCondition | null);
  'slice'?: (_qdrant_SliceCondition | null);
  'condition_one_of'?: "field"|"is_empty"|"has_id"|"filter"|"is_null"|"nested"|"has_vector"|"slice";
}

export interface Condition__Output {
  'field'?: (_qdrant_FieldCondition__Output);
  'is_empty'?: (_qdrant_IsEmptyCondition__Output);
  'has_id'?: (_qdrant_HasIdCondition__Output);
  'filter'?: (_qdrant_Filter__Output);
  'is_null'?: (_qdrant_IsNullCondition__Output);
  'nested'?: (_qdrant_NestedCondition__Output);
  'has_vector'?: (_qdrant_HasVectorCondition__Output);
  'slice'?: (_qdrant_SliceCondition__Output);
  'condition_one_of'?: "field"|"is_empty"|"has_id"|"filter"|"is_null"|"nested"|"has_vector"|"slice";
}
