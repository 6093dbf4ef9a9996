// Original file: proto/points.proto

import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';

export interface PowExpression {
  'base'?: (_qdrant_Expression | null);
  'exponent'?: (_qdrant_Expression | null);
}

export interface PowExpression__Output {
  'base'?: (_qdrant_Expression__Output);
  'exponent'?: (_qdrant_Expression__Output);
}
