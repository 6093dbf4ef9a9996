// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';
import type { RecommendInput as _qdrant_RecommendInput, RecommendInput__Output as _qdrant_RecommendInput__Output } from '../qdrant/RecommendInput.js';
import type { DiscoverInput as _qdrant_DiscoverInput, DiscoverInput__Output as _qdrant_DiscoverInput__Output } from '../qdrant/DiscoverInput.js';
import type { ContextInput as _qdrant_ContextInput, ContextInput__Output as _qdrant_ContextInput__Output } from '../qdrant/ContextInput.js';
import type { OrderBy as _qdrant_OrderBy, OrderBy__Output as _qdrant_OrderBy__Output } from '../qdrant/OrderBy.js';
import type { Fusion as _qdrant_Fusion, Fusion__Output as _qdrant_Fusion__Output } from '../qdrant/Fusion.js';
import type { Sample as _qdrant_Sample, Sample__Output as _qdrant_Sample__Output } from '../qdrant/Sample.js';
import type { Formula as _qdrant_Formula, Formula__Output as _qdrant_Formula__Output } from '../qdrant/Formula.js';
import type { NearestInputWithMmr as _qdrant_NearestInputWithMmr, NearestInputWithMmr__Output as _qdrant_NearestInputWithMmr__Output } from '../qdrant/NearestInputWithMmr.js';
import type { Rrf as _qdrant_Rrf, Rrf__Output as _qdrant_Rrf__Output } from '../qdrant/Rrf.js';
import type { RelevanceFeedbackInput as _qdrant_RelevanceFeedbackInput, RelevanceFeedbackInput__Output as _qdrant_RelevanceFeedbackInput__Output } from '../qdrant/RelevanceFeedbackInput.js';

export interface Query {
  'nearest'?: (_qdrant_VectorInput | null);
  'recommend'?: (_qdrant_RecommendInput | null);
  'discover'?: (_qdrant_DiscoverInput | null);
  'context'?: (_qdrant_ContextInput | null);
  'order_by'?: (_qdrant_OrderBy | null);
  'fusion'?: (_qdrant_Fusion);
  'sample'?: (_qdrant_Sample);
  'formula'?: (_qdrant_Formula | null);
  'nearest_with_mmr'?: (_qdrant_NearestInputWithMmr | null);
  'rrf'?: (_qdrant_Rrf | null);
  'relevance_feedback'?: (_qdrant_RelevanceFeedbackInput | null);
  'variant'?: "nearest"|"recommend"|"discover"|"context"|"order_by"|"fusion"|"sample"|"formula"|"nearest_with_mmr"|"rrf"|"relevance_feedback";
}

export interface Query__Output {
  'nearest'?: (_qdrant_VectorInput__Output);
  'recommend'?: (_qdrant_RecommendInput__Output);
  'discover'?: (_qdrant_DiscoverInput__Output);
  'context'?: (_qdrant_ContextInput__Output);
  'order_by'?: (_qdrant_OrderBy__Output);
  'fusion'?: (_qdrant_Fusion__Output);
  'sample'?: (_qdrant_Sample__Output);
  'formula'?: (_qdrant_Formula__Output);
  'nearest_with_mmr'?: (_qdrant_NearestInputWithMmr__Output);
  'rrf'?: (_qdrant_Rrf__Output);
  'relevance_feedback'?: (_qdrant_RelevanceFeedbackInput__Output);
  'variant'?: "nearest"|"recommend"|"discover"|"context"|"order_by"|"fusion"|"sample"|"formula"|"nearest_with_mmr"|"rrf"|"relevance_feedback";
}
