// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';

export interface FeedbackItem {
  'example'?: (_qdrant_VectorInput | null);
  'score'?: (number | string);
}

export interface FeedbackItem__Output {
  'example'?: (_qdrant_VectorInput__Output);
  'score'?: (number);
}
