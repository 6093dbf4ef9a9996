// Original file: proto/points.proto

import type { BatchResult as _qdrant_BatchResult, BatchResult__Output as _qdrant_BatchResult__Output } from '../qdrant/BatchResult.js';

export interface QueryBatchResponse {
  'result'?: (_qdrant_BatchResult)[];
  'time'?: (number | string);
}

export interface QueryBatchResponse__Output {
  'result': (_qdrant_BatchResult__Output)[];
  'time'?: (number);
}
