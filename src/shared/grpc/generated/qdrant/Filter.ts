// Original file: proto/qdrant_common.proto

import type { Condition as _qdrant_Condition, Condition__Output as _qdrant_Condition__Output } from '../qdrant/Condition.js';
import type { MinShould as _qdrant_MinShould, MinShould__Output as _qdrant_MinShould__Output } from '../qdrant/MinShould.js';

export interface Filter {
  'should'?: (_qdrant_Condition)[];
  'must'?: (_qdrant_Condition)[];
  'must_not'?: (_qdrant_Condition)[];
  'min_should'?: (_qdrant_MinShould | null);
  '_min_should'?: "min_should";
}

export interface Filter__Output {
  'should': (_qdrant_Condition__Output)[];
  'must': (_qdrant_Condition__Output)[];
  'must_not': (_qdrant_Condition__Output)[];
  'min_should'?: (_qdrant_MinShould__Output);
  '_min_should'?: "min_should";
}
