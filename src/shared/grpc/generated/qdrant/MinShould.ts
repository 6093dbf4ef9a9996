// Original file: proto/qdrant_common.proto

import type { Condition as _qdrant_Condition, Condition__Output as _qdrant_Condition__Output } from '../qdrant/Condition.js';
import type { Long } from '@grpc/proto-loader';

export interface MinShould {
  'conditions'?: (_qdrant_Condition)[];
  'min_count'?: (number | string | Long);
}

export interface MinShould__Output {
  'conditions': (_qdrant_Condition__Output)[];
  'min_count'?: (string);
}
