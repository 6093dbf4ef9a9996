// Original file: proto/collections.proto

import type { VectorParams as _qdrant_VectorParams, VectorParams__Output as _qdrant_VectorParams__Output } from '../qdrant/VectorParams.js';

export interface VectorParamsMap {
  'map'?: ({[key: string]: _qdrant_VectorParams});
}

export interface VectorParamsMap__Output {
  'map': ({[key: string]: _qdrant_VectorParams__Output});
}
