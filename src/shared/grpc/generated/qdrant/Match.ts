// Original file: proto/qdrant_common.proto

import type { RepeatedStrings as _qdrant_RepeatedStrings, RepeatedStrings__Output as _qdrant_RepeatedStrings__Output } from '../qdrant/RepeatedStrings.js';
import type { RepeatedIntegers as _qdrant_RepeatedIntegers, RepeatedIntegers__Output as _qdrant_RepeatedIntegers__Output } from '../qdrant/RepeatedIntegers.js';
import type { Long } from '@grpc/proto-loader';

export interface Match {
  'keyword'?: (string);
  'integer'?: (number | string | Long);
  'boolean'?: (boolean);
  'text'?: (string);
  'keywords'?: (_qdrant_RepeatedStrings | null);
  'integers'?: (_qdrant_RepeatedIntegers | null);
  'except_integers'?: (_qdrant_RepeatedIntegers | null);
  'except_keywords'?: (_qdrant_RepeatedStrings | null);
  'phrase'?: (string);
  'text_any'?: (string);
  'prefix'?: (string);
  'match_value'?: "keyword"|"integer"|"boolean"|"text"|"keywords"|"integers"|"except_integers"|"except_keywords"|"phrase"|"text_any"|"prefix";
}

export interface Match__Output {
  'keyword'?: (string);
  'integer'?: (string);
  'boolean'?: (boolean);
  'text'?: (string);
  'keywords'?: (_qdrant_RepeatedStrings__Output);
  'integers'?: (_qdrant_RepeatedIntegers__Output);
  'except_integers'?: (_qdrant_RepeatedIntegers__Output);
  'except_keywords'?: (_qdrant_RepeatedStrings__Output);
  'phrase'?: (string);
  'text_any'?: (string);
  'prefix'?: (string);
  'match_value'?: "keyword"|"integer"|"boolean"|"text"|"keywords"|"integers"|"except_integers"|"except_keywords"|"phrase"|"text_any"|"prefix";
}
