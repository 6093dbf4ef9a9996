// Original file: proto/points.proto

import type { NaiveFeedbackStrategy as _qdrant_NaiveFeedbackStrategy, NaiveFeedbackStrategy__Output as _qdrant_NaiveFeedbackStrategy__Output } from '../qdrant/NaiveFeedbackStrategy.js';

export interface FeedbackStrategy {
  'naive'?: (_qdrant_NaiveFeedbackStrategy | null);
  'variant'?: "naive";
}

export interface FeedbackStrategy__Output {
  'naive'?: (_qdrant_NaiveFeedbackStrategy__Output);
  'variant'?: "naive";
}
