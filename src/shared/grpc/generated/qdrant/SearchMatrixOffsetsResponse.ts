// Original file: proto/points.proto

import type { SearchMatrixOffsets as _qdrant_SearchMatrixOffsets, SearchMatrixOffsets__Output as _qdrant_SearchMatrixOffsets__Output } from '../qdrant/SearchMatrixOffsets.js';

export interface SearchMatrixOffsetsResponse {
  'result'?: (_qdrant_SearchMatrixOffsets | null);
  'time'?: (number | string);
}

export interface SearchMatrixOffsetsResponse__Output {
  'result'?: (_qdrant_SearchMatrixOffsets__Output);
  'time'?: (number);
}
