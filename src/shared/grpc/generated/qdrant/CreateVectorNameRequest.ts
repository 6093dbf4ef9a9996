// Original file: proto/points.proto

import type { DenseVectorCreationConfig as _qdrant_DenseVectorCreationConfig, DenseVectorCreationConfig__Output as _qdrant_DenseVectorCreationConfig__Output } from '../qdrant/DenseVectorCreationConfig.js';
import type { SparseVectorCreationConfig as _qdrant_SparseVectorCreationConfig, SparseVectorCreationConfig__Output as _qdrant_SparseVectorCreationConfig__Output } from '../qdrant/SparseVectorCreationConfig.js';
import type { WriteOrdering as _qdrant_WriteOrdering, WriteOrdering__Output as _qdrant_WriteOrdering__Output } from '../qdrant/WriteOrdering.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateVectorNameRequest {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'vector_name'?: (string);
  'dense_config'?: (_qdrant_DenseVectorCreationConfig | null);
  'sparse_config'?: (_qdrant_SparseVectorCreationConfig | null);
  'timeout'?: (number | string | Long);
  'ordering'?: (_qdrant_WriteOrdering | null);
  '_wait'?: "wait";
  'vector_config'?: "dense_config"|"sparse_config";
  '_timeout'?: "timeout";
  '_ordering'?: "ordering";
}

export interface CreateVectorNameRequest__Output {
  'collection_name'?: (string);
  'wait'?: (boolean);
  'vector_name'?: (string);
  'dense_config'?: (_qdrant_DenseVectorCreationConfig__Output);
  'sparse_config'?: (_qdrant_SparseVectorCreationConfig__Output);
  'timeout'?: (string);
  'ordering'?: (_qdrant_WriteOrdering__Output);
  '_wait'?: "wait";
  'vector_config'?: "dense_config"|"sparse_config";
  '_timeout'?: "timeout";
  '_ordering'?: "ordering";
}
