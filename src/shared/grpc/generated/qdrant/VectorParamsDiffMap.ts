// Original file: proto/collections.proto

import type { VectorParamsDiff as _qdrant_VectorParamsDiff, VectorParamsDiff__Output as _qdrant_VectorParamsDiff__Output } from '../qdrant/VectorParamsDiff.js';

export interface VectorParamsDiffMap {
  'map'?: ({[key: string]: _qdrant_VectorParamsDiff});
}

export interface VectorParamsDiffMap__Output {
  'map': ({[key: string]: _qdrant_VectorParamsDiff__Output});
}
