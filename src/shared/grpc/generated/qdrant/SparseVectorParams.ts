// Original file: proto/collections.proto

import type { SparseIndexConfig as _qdrant_SparseIndexConfig, SparseIndexConfig__Output as _qdrant_SparseIndexConfig__Output } from '../qdrant/SparseIndexConfig.js';
import type { Modifier as _qdrant_Modifier, Modifier__Output as _qdrant_Modifier__Output } from '../qdrant/Modifier.js';

export interface SparseVectorParams {
  'index'?: (_qdrant_SparseIndexConfig | null);
  'modifier'?: (_qdrant_Modifier);
  '_index'?: "index";
  '_modifier'?: "modifier";
}

export interface SparseVectorParams__Output {
  'index'?: (_qdrant_SparseIndexConfig__Output);
  'modifier'?: (_qdrant_Modifier__Output);
  '_index'?: "index";
  '_modifier'?: "modifier";
}
