// Original file: proto/collections.proto

import type { HnswConfigDiff as _qdrant_HnswConfigDiff, HnswConfigDiff__Output as _qdrant_HnswConfigDiff__Output } from '../qdrant/HnswConfigDiff.js';

export interface VectorParamsDiff {
  'hnsw_config'?: (_qdrant_HnswConfigDiff | null);
  'on_disk'?: (boolean);
  '_hnsw_config'?: "hnsw_config";
  '_on_disk'?: "on_disk";
}

export interface VectorParamsDiff__Output {
  'hnsw_config'?: (_qdrant_HnswConfigDiff__Output);
  'on_disk'?: (boolean);
  '_hnsw_config'?: "hnsw_config";
  '_on_disk'?: "on_disk";
}
