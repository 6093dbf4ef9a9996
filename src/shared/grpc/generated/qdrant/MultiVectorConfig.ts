// Original file: proto/collections.proto

import type { MultiVectorComparator as _qdrant_MultiVectorComparator, MultiVectorComparator__Output as _qdrant_MultiVectorComparator__Output } from '../qdrant/MultiVectorComparator.js';

export interface MultiVectorConfig {
  'comparator'?: (_qdrant_MultiVectorComparator);
}

export interface MultiVectorConfig__Output {
  'comparator'?: (_qdrant_MultiVectorComparator__Output);
}
