// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';
import type { ContextInput as _qdrant_ContextInput, ContextInput__Output as _qdrant_ContextInput__Output } from '../qdrant/ContextInput.js';

export interface DiscoverInput {
  'target'?: (_qdrant_VectorInput | null);
  'context'?: (_qdrant_ContextInput | null);
}

export interface DiscoverInput__Output {
  'target'?: (_qdrant_VectorInput__Output);
  'context'?: (_qdrant_ContextInput__Output);
}
