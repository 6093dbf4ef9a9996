// Original file: proto/points.proto

import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface Formula {
  'defaults'?: ({[key: string]: _qdrant_Value});
}

export interface Formula__Output {
  'defaults': ({[key: string]: _qdrant_Value__Output});
}
