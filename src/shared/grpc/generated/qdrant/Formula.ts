// Original file: proto/points.proto

import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';
import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface Formula {
  'expression'?: (_qdrant_Expression | null);
  'defaults'?: ({[key: string]: _qdrant_Value});
}

export interface Formula__Output {
  'expression'?: (_qdrant_Expression__Output);
  'defaults': ({[key: string]: _qdrant_Value__Output});
}
