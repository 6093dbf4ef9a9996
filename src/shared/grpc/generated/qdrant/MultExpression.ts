// Original file: proto/points.proto

import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';

export interface MultExpression {
  'mult'?: (_qdrant_Expression)[];
}

export interface MultExpression__Output {
  'mult': (_qdrant_Expression__Output)[];
}
