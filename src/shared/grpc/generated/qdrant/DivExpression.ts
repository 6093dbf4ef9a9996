// Original file: proto/points.proto

import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';

export interface DivExpression {
  'left'?: (_qdrant_Expression | null);
  'right'?: (_qdrant_Expression | null);
  'by_zero_default'?: (number | string);
  '_by_zero_default'?: "by_zero_default";
}

export interface DivExpression__Output {
  'left'?: (_qdrant_Expression__Output);
  'right'?: (_qdrant_Expression__Output);
  'by_zero_default'?: (number);
  '_by_zero_default'?: "by_zero_default";
}
