// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';
import type { FeedbackItem as _qdrant_FeedbackItem, FeedbackItem__Output as _qdrant_FeedbackItem__Output } from '../qdrant/FeedbackItem.js';
import type { FeedbackStrategy as _qdrant_FeedbackStrategy, FeedbackStrategy__Output as _qdrant_FeedbackStrategy__Output } from '../qdrant/FeedbackStrategy.js';

export interface RelevanceFeedbackInput {
  'target'?: (_qdrant_VectorInput | null);
  'feedback'?: (_qdrant_FeedbackItem)[];
  'strategy'?: (_qdrant_FeedbackStrategy | null);
}

export interface RelevanceFeedbackInput__Output {
  'target'?: (_qdrant_VectorInput__Output);
  'feedback': (_qdrant_FeedbackItem__Output)[];
  'strategy'?: (_qdrant_FeedbackStrategy__Output);
}
