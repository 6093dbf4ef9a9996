// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';

export interface RelevanceFeedbackInput {
  'target'?: (_qdrant_VectorInput | null);
}

export interface RelevanceFeedbackInput__Output {
  'target'?: (_qdrant_VectorInput__Output);
}
