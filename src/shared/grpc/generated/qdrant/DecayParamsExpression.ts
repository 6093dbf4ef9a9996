// Original file: proto/points.proto

import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';

export interface DecayParamsExpression {
  'x'?: (_qdrant_Expression | null);
  'target'?: (_qdrant_Expression | null);
  'scale'?: (number | string);
  'midpoint'?: (number | string);
  '_target'?: "target";
  '_scale'?: "scale";
  '_midpoint'?: "midpoint";
}

export interface DecayParamsExpression__Output {
  'x'?: (_qdrant_Expression__Output);
  'target'?: (_qdrant_Expression__Output);
  'scale'?: (number);
  'midpoint'?: (number);
  '_target'?: "target";
  '_scale'?: "scale";
  '_midpoint'?: "midpoint";
}
