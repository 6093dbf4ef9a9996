// Original file: proto/collections.proto

import type { SparseVectorParams as _qdrant_SparseVectorParams, SparseVectorParams__Output as _qdrant_SparseVectorParams__Output } from '../qdrant/SparseVectorParams.js';

export interface SparseVectorConfig {
  'map'?: ({[key: string]: _qdrant_SparseVectorParams});
}

export interface SparseVectorConfig__Output {
  'map': ({[key: string]: _qdrant_SparseVectorParams__Output});
}
