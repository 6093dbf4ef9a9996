// Original file: proto/points.proto

import type { SparseIndices as _qdrant_SparseIndices, SparseIndices__Output as _qdrant_SparseIndices__Output } from '../qdrant/SparseIndices.js';
import type { DenseVector as _qdrant_DenseVector, DenseVector__Output as _qdrant_DenseVector__Output } from '../qdrant/DenseVector.js';
import type { SparseVector as _qdrant_SparseVector, SparseVector__Output as _qdrant_SparseVector__Output } from '../qdrant/SparseVector.js';
import type { MultiDenseVector as _qdrant_MultiDenseVector, MultiDenseVector__Output as _qdrant_MultiDenseVector__Output } from '../qdrant/MultiDenseVector.js';

export interface VectorOutput {
  'data'?: (number | string)[];
  'indices'?: (_qdrant_SparseIndices | null);
  'vectors_count'?: (number);
  'dense'?: (_qdrant_DenseVector | null);
  'sparse'?: (_qdrant_SparseVector | null);
  'multi_dense'?: (_qdrant_MultiDenseVector | null);
  '_indices'?: "indices";
  '_vectors_count'?: "vectors_count";
  'vector'?: "dense"|"sparse"|"multi_dense";
}

export interface VectorOutput__Output {
  'data': (number)[];
  'indices'?: (_qdrant_SparseIndices__Output);
  'vectors_count'?: (number);
  'dense'?: (_qdrant_DenseVector__Output);
  'sparse'?: (_qdrant_SparseVector__Output);
  'multi_dense'?: (_qdrant_MultiDenseVector__Output);
  '_indices'?: "indices";
  '_vectors_count'?: "vectors_count";
  'vector'?: "dense"|"sparse"|"multi_dense";
}
