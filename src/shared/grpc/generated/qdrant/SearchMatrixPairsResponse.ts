// Original file: proto/points.proto

import type { SearchMatrixPairs as _qdrant_SearchMatrixPairs, SearchMatrixPairs__Output as _qdrant_SearchMatrixPairs__Output } from '../qdrant/SearchMatrixPairs.js';

export interface SearchMatrixPairsResponse {
  'result'?: (_qdrant_SearchMatrixPairs | null);
  'time'?: (number | string);
}

export interface SearchMatrixPairsResponse__Output {
  'result'?: (_qdrant_SearchMatrixPairs__Output);
  'time'?: (number);
}
