// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';

export interface ContextInputPair {
  'positive'?: (_qdrant_VectorInput | null);
  'negative'?: (_qdrant_VectorInput | null);
}

export interface ContextInputPair__Output {
  'positive'?: (_qdrant_VectorInput__Output);
  'negative'?: (_qdrant_VectorInput__Output);
}
