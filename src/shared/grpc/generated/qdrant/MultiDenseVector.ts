// Original file: proto/points.proto

import type { DenseVector as _qdrant_DenseVector, DenseVector__Output as _qdrant_DenseVector__Output } from '../qdrant/DenseVector.js';

export interface MultiDenseVector {
  'vectors'?: (_qdrant_DenseVector)[];
}

export interface MultiDenseVector__Output {
  'vectors': (_qdrant_DenseVector__Output)[];
}
