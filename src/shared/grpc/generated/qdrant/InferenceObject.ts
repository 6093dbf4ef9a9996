// Original file: proto/points.proto

import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface InferenceObject {
  'object'?: (_qdrant_Value | null);
  'model'?: (string);
  'options'?: ({[key: string]: _qdrant_Value});
}

export interface InferenceObject__Output {
  'object'?: (_qdrant_Value__Output);
  'model'?: (string);
  'options': ({[key: string]: _qdrant_Value__Output});
}
