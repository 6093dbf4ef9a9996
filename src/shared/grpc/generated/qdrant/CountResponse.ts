// Original file: proto/points.proto

import type { CountResult as _qdrant_CountResult, CountResult__Output as _qdrant_CountResult__Output } from '../qdrant/CountResult.js';

export interface CountResponse {
  'result'?: (_qdrant_CountResult | null);
  'time'?: (number | string);
}

export interface CountResponse__Output {
  'result'?: (_qdrant_CountResult__Output);
  'time'?: (number);
}
