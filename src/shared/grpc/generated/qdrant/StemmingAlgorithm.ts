// Original file: proto/collections.proto

import type { SnowballParams as _qdrant_SnowballParams, SnowballParams__Output as _qdrant_SnowballParams__Output } from '../qdrant/SnowballParams.js';
import type { DisabledStemmer as _qdrant_DisabledStemmer, DisabledStemmer__Output as _qdrant_DisabledStemmer__Output } from '../qdrant/DisabledStemmer.js';

export interface StemmingAlgorithm {
  'snowball'?: (_qdrant_SnowballParams | null);
  'disabled'?: (_qdrant_DisabledStemmer | null);
  'stemming_params'?: "snowball"|"disabled";
}

export interface StemmingAlgorithm__Output {
  'snowball'?: (_qdrant_SnowballParams__Output);
  'disabled'?: (_qdrant_DisabledStemmer__Output);
  'stemming_params'?: "snowball"|"disabled";
}
