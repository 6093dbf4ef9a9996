// Original file: proto/points.proto

import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';

export interface SumExpression {
  'sum'?: (_qdrant_Expression)[];
}

export interface SumExpression__Output {
  'sum': (_qdrant_Expression__Output)[];
}
