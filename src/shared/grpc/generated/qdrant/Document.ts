// Original file: proto/points.proto

import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface Document {
  'text'?: (string);
  'model'?: (string);
  'options'?: ({[key: string]: _qdrant_Value});
}

export interface Document__Output {
  'text'?: (string);
  'model'?: (string);
  'options': ({[key: string]: _qdrant_Value__Output});
}
