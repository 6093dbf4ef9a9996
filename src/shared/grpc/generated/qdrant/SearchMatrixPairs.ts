// Original file: proto/points.proto

import type { SearchMatrixPair as _qdrant_SearchMatrixPair, SearchMatrixPair__Output as _qdrant_SearchMatrixPair__Output } from '../qdrant/SearchMatrixPair.js';

export interface SearchMatrixPairs {
  'pairs'?: (_qdrant_SearchMatrixPair)[];
}

export interface SearchMatrixPairs__Output {
  'pairs': (_qdrant_SearchMatrixPair__Output)[];
}
