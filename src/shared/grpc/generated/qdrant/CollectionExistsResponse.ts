// Original file: proto/collections.proto

import type { CollectionExists as _qdrant_CollectionExists, CollectionExists__Output as _qdrant_CollectionExists__Output } from '../qdrant/CollectionExists.js';

export interface CollectionExistsResponse {
  'result'?: (_qdrant_CollectionExists | null);
  'time'?: (number | string);
}

export interface CollectionExistsResponse__Output {
  'result'?: (_qdrant_CollectionExists__Output);
  'time'?: (number);
}
