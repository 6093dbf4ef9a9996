// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { DenseVector as _qdrant_DenseVector, DenseVector__Output as _qdrant_DenseVector__Output } from '../qdrant/DenseVector.js';
import type { SparseVector as _qdrant_SparseVector, SparseVector__Output as _qdrant_SparseVector__Output } from '../qdrant/SparseVector.js';
import type { MultiDenseVector as _qdrant_MultiDenseVector, MultiDenseVector__Output as _qdrant_MultiDenseVector__Output } from '../qdrant/MultiDenseVector.js';
import type { Document as _qdrant_Document, Document__Output as _qdrant_Document__Output } from '../qdrant/Document.js';
import type { Image as _qdrant_Image, Image__Output as _qdrant_Image__Output } from '../qdrant/Image.js';
import type { InferenceObject as _qdrant_InferenceObject, InferenceObject__Output as _qdrant_InferenceObject__Output } from '../qdrant/InferenceObject.js';

export interface VectorInput {
  'id'?: (_qdrant_PointId | null);
  'dense'?: (_qdrant_DenseVector | null);
  'sparse'?: (_qdrant_SparseVector | null);
  'multi_dense'?: (_qdrant_MultiDenseVector | null);
  'document'?: (_qdrant_Document | null);
  'image'?: (_qdrant_Image | null);
  'object'?: (_qdrant_InferenceObject | null);
  'variant'?: "id"|"dense"|"sparse"|"multi_dense"|"document"|"image"|"object";
}

export interface VectorInput__Output {
  'id'?: (_qdrant_PointId__Output);
  'dense'?: (_qdrant_DenseVector__Output);
  'sparse'?: (_qdrant_SparseVector__Output);
  'multi_dense'?: (_qdrant_MultiDenseVector__Output);
  'document'?: (_qdrant_Document__Output);
  'image'?: (_qdrant_Image__Output);
  'object'?: (_qdrant_InferenceObject__Output);
  'variant'?: "id"|"dense"|"sparse"|"multi_dense"|"document"|"image"|"object";
}
