// Original file: proto/points.proto

import type { VectorInput as _qdrant_VectorInput, VectorInput__Output as _qdrant_VectorInput__Output } from '../qdrant/VectorInput.js';
import type { Mmr as _qdrant_Mmr, Mmr__Output as _qdrant_Mmr__Output } from '../qdrant/Mmr.js';

export interface NearestInputWithMmr {
  'nearest'?: (_qdrant_VectorInput | null);
  'mmr'?: (_qdrant_Mmr | null);
}

export interface NearestInputWithMmr__Output {
  'nearest'?: (_qdrant_VectorInput__Output);
  'mmr'?: (_qdrant_Mmr__Output);
}
