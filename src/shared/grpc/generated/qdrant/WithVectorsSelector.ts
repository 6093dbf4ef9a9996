// Original file: proto/points.proto

import type { VectorsSelector as _qdrant_VectorsSelector, VectorsSelector__Output as _qdrant_VectorsSelector__Output } from '../qdrant/VectorsSelector.js';

export interface WithVectorsSelector {
  'enable'?: (boolean);
  'include'?: (_qdrant_VectorsSelector | null);
  'selector_options'?: "enable"|"include";
}

export interface WithVectorsSelector__Output {
  'enable'?: (boolean);
  'include'?: (_qdrant_VectorsSelector__Output);
  'selector_options'?: "enable"|"include";
}
