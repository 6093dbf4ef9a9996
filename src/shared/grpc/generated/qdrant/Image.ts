// Original file: proto/points.proto

import type { Value as _qdrant_Value, Value__Output as _qdrant_Value__Output } from '../qdrant/Value.js';

export interface Image {
  'image'?: (_qdrant_Value | null);
  'model'?: (string);
  'options'?: ({[key: string]: _qdrant_Value});
}

export interface Image__Output {
  'image'?: (_qdrant_Value__Output);
  'model'?: (string);
  'options': ({[key: string]: _qdrant_Value__Output});
}
