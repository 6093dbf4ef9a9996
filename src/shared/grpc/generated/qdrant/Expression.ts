// Original file: proto/points.proto

import type { Condition as _qdrant_Condition, Condition__Output as _qdrant_Condition__Output } from '../qdrant/Condition.js';
import type { GeoDistance as _qdrant_GeoDistance, GeoDistance__Output as _qdrant_GeoDistance__Output } from '../qdrant/GeoDistance.js';
import type { MultExpression as _qdrant_MultExpression, MultExpression__Output as _qdrant_MultExpression__Output } from '../qdrant/MultExpression.js';
import type { SumExpression as _qdrant_SumExpression, SumExpression__Output as _qdrant_SumExpression__Output } from '../qdrant/SumExpression.js';
import type { DivExpression as _qdrant_DivExpression, DivExpression__Output as _qdrant_DivExpression__Output } from '../qdrant/DivExpression.js';
import type { Expression as _qdrant_Expression, Expression__Output as _qdrant_Expression__Output } from '../qdrant/Expression.js';
import type { PowExpression as _qdrant_PowExpression, PowExpression__Output as _qdrant_PowExpression__Output } from '../qdrant/PowExpression.js';
import type { DecayParamsExpression as _qdrant_DecayParamsExpression, DecayParamsExpression__Output as _qdrant_DecayParamsExpression__Output } from '../qdrant/DecayParamsExpression.js';

export interface Expression {
  'constant'?: (number | string);
  'variable'?: (string);
  'condition'?: (_qdrant_Condition | null);
  'geo_distance'?: (_qdrant_GeoDistance | null);
  'datetime'?: (string);
  'datetime_key'?: (string);
  'mult'?: (_qdrant_MultExpression | null);
  'sum'?: (_qdrant_SumExpression | null);
  'div'?: (_qdrant_DivExpression | null);
  'neg'?: (_qdrant_Expression | null);
  'abs'?: (_qdrant_Expression | null);
  'sqrt'?: (_qdrant_Expression | null);
  'pow'?: (_qdrant_PowExpression | null);
  'exp'?: (_qdrant_Expression | null);
  'log10'?: (_qdrant_Expression | null);
  'ln'?: (_qdrant_Expression | null);
  'exp_decay'?: (_qdrant_DecayParamsExpression | null);
  'gauss_decay'?: (_qdrant_DecayParamsExpression | null);
  'lin_decay'?: (_qdrant_DecayParamsExpression | null);
  'variant'?: "constant"|"variable"|"condition"|"geo_distance"|"datetime"|"datetime_key"|"mult"|"sum"|"div"|"neg"|"abs"|"sqrt"|"pow"|"exp"|"log10"|"ln"|"exp_decay"|"gauss_decay"|"lin_decay";
}

export interface Expression__Output {
  'constant'?: (number);
  'variable'?: (string);
  'condition'?: (_qdrant_Condition__Output);
  'geo_distance'?: (_qdrant_GeoDistance__Output);
  'datetime'?: (string);
  'datetime_key'?: (string);
  'mult'?: (_qdrant_MultExpression__Output);
  'sum'?: (_qdrant_SumExpression__Output);
  'div'?: (_qdrant_DivExpression__Output);
  'neg'?: (_qdrant_Expression__Output);
  'abs'?: (_qdrant_Expression__Output);
  'sqrt'?: (_qdrant_Expression__Output);
  'pow'?: (_qdrant_PowExpression__Output);
  'exp'?: (_qdrant_Expression__Output);
  'log10'?: (_qdrant_Expression__Output);
  'ln'?: (_qdrant_Expression__Output);
  'exp_decay'?: (_qdrant_DecayParamsExpression__Output);
  'gauss_decay'?: (_qdrant_DecayParamsExpression__Output);
  'lin_decay'?: (_qdrant_DecayParamsExpression__Output);
  'variant'?: "constant"|"variable"|"condition"|"geo_distance"|"datetime"|"datetime_key"|"mult"|"sum"|"div"|"neg"|"abs"|"sqrt"|"pow"|"exp"|"log10"|"ln"|"exp_decay"|"gauss_decay"|"lin_decay";
}
