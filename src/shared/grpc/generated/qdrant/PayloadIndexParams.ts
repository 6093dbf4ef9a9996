// Original file: proto/collections.proto

import type { TextIndexParams as _qdrant_TextIndexParams, TextIndexParams__Output as _qdrant_TextIndexParams__Output } from '../qdrant/TextIndexParams.js';
import type { IntegerIndexParams as _qdrant_IntegerIndexParams, IntegerIndexParams__Output as _qdrant_IntegerIndexParams__Output } from '../qdrant/IntegerIndexParams.js';
import type { KeywordIndexParams as _qdrant_KeywordIndexParams, KeywordIndexParams__Output as _qdrant_KeywordIndexParams__Output } from '../qdrant/KeywordIndexParams.js';
import type { FloatIndexParams as _qdrant_FloatIndexParams, FloatIndexParams__Output as _qdrant_FloatIndexParams__Output } from '../qdrant/FloatIndexParams.js';
import type { GeoIndexParams as _qdrant_GeoIndexParams, GeoIndexParams__Output as _qdrant_GeoIndexParams__Output } from '../qdrant/GeoIndexParams.js';
import type { BoolIndexParams as _qdrant_BoolIndexParams, BoolIndexParams__Output as _qdrant_BoolIndexParams__Output } from '../qdrant/BoolIndexParams.js';
import type { DatetimeIndexParams as _qdrant_DatetimeIndexParams, DatetimeIndexParams__Output as _qdrant_DatetimeIndexParams__Output } from '../qdrant/DatetimeIndexParams.js';
import type { UuidIndexParams as _qdrant_UuidIndexParams, UuidIndexParams__Output as _qdrant_UuidIndexParams__Output } from '../qdrant/UuidIndexParams.js';

export interface PayloadIndexParams {
  'text_index_params'?: (_qdrant_TextIndexParams | null);
  'integer_index_params'?: (_qdrant_IntegerIndexParams | null);
  'keyword_index_params'?: (_qdrant_KeywordIndexParams | null);
  'float_index_params'?: (_qdrant_FloatIndexParams | null);
  'geo_index_params'?: (_qdrant_GeoIndexParams | null);
  'bool_index_params'?: (_qdrant_BoolIndexParams | null);
  'datetime_index_params'?: (_qdrant_DatetimeIndexParams | null);
  'uuid_index_params'?: (_qdrant_UuidIndexParams | null);
  'index_params'?: "keyword_index_params"|"integer_index_params"|"float_index_params"|"geo_index_params"|"text_index_params"|"bool_index_params"|"datetime_index_params"|"uuid_index_params";
}

export interface PayloadIndexParams__Output {
  'text_index_params'?: (_qdrant_TextIndexParams__Output);
  'integer_index_params'?: (_qdrant_IntegerIndexParams__Output);
  'keyword_index_params'?: (_qdrant_KeywordIndexParams__Output);
  'float_index_params'?: (_qdrant_FloatIndexParams__Output);
  'geo_index_params'?: (_qdrant_GeoIndexParams__Output);
  'bool_index_params'?: (_qdrant_BoolIndexParams__Output);
  'datetime_index_params'?: (_qdrant_DatetimeIndexParams__Output);
  'uuid_index_params'?: (_qdrant_UuidIndexParams__Output);
  'index_params'?: "keyword_index_params"|"integer_index_params"|"float_index_params"|"geo_index_params"|"text_index_params"|"bool_index_params"|"datetime_index_params"|"uuid_index_params";
}
