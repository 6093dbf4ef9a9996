// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';
import type { RecommendStrategy as _qdrant_RecommendStrategy, RecommendStrategy__Output as _qdrant_RecommendStrategy__Output } from '../qdrant/RecommendStrategy.js';

export interface RecommendInput {
  'positive'?: (_qdrant_VectorInput)[];
  'negative'?: (_qdrant_VectorInput)[];
  'strategy'?: (_qdrant_RecommendStrategy);
  '_strategy'?: "strategy";
}

export interface RecommendInput__Output {
  'positive': (_qdrant_VectorInput__Output)[];
  'negative': (_qdrant_VectorInput__Output)[];
  'strategy'?: (_qdrant_RecommendStrategy__Output);
  '_strategy'?: "strategy";
}
