// Original file: proto/points.proto

import type { SparseIndices as _qdrant_SparseIndices, SparseIndices__Output as _qdrant_SparseIndices__Output } from '../qdrant/SparseIndices.js';
import type { DenseVector as _qdrant_DenseVector, DenseVector__Output as _qdrant_DenseVector__Output } from '../qdrant/DenseVector.js';
import type { SparseVector as _qdrant_SparseVector, SparseVector__Output as _qdrant_SparseVector__Output } from '../qdrant/SparseVector.js';
import type { MultiDenseVector as _qdrant_MultiDenseVector, MultiDenseVector__Output as _qdrant_MultiDenseVector__Output } from '../qdrant/MultiDenseVector.js';
import type { Document as _qdrant_Document, Document__Output as _qdrant_Document__Output } from '../qdrant/Document.js';
import type { Image as _qdrant_Image, Image__Output as _qdrant_Image__Output } from '../qdrant/Image.js';
import type { InferenceObject as _qdrant_InferenceObject, InferenceObject__Output as _qdrant_InferenceObject__Output } from '../qdrant/InferenceObject.js';

export interface Vector {
  'data'?: (number | string)[];
  'indices'?: (_qdrant_SparseIndices | null);
  'vectors_count'?: (number);
  'dense'?: (_qdrant_DenseVector | null);
  'sparse'?: (_qdrant_SparseVector | null);
  'multi_dense'?: (_qdrant_MultiDenseVector | null);
  'document'?: (_qdrant_Document | null);
  'image'?: (_qdrant_Image | null);
  'object'?: (_qdrant_InferenceObject | null);
  '_indices'?: "indices";
  '_vectors_count'?: "vectors_count";
  'vector'?: "dense"|"sparse"|"multi_dense"|"document"|"image"|"object";
}

export interface Vector__Output {
  'data': (number)[];
  'indices'?: (_qdrant_SparseIndices__Output);
  'vectors_count'?: (number);
  'dense'?: (_qdrant_DenseVector__Output);
  'sparse'?: (_qdrant_SparseVector__Output);
  'multi_dense'?: (_qdrant_MultiDenseVector__Output);
  'document'?: (_qdrant_Document__Output);
  'image'?: (_qdrant_Image__Output);
  'object'?: (_qdrant_InferenceObject__Output);
  '_indices'?: "indices";
  '_vectors_count'?: "vectors_count";
  'vector'?: "dense"|"sparse"|"multi_dense"|"document"|"image"|"object";
}
