// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { RetrievedPoint as _qdrant_RetrievedPoint, RetrievedPoint__Output as _qdrant_RetrievedPoint__Output } from '../qdrant/RetrievedPoint.js';

export interface ScrollResponse {
  'next_page_offset'?: (_qdrant_PointId | null);
  'result'?: (_qdrant_RetrievedPoint)[];
  'time'?: (number | string);
  '_next_page_offset'?: "next_page_offset";
}

export interface ScrollResponse__Output {
  'next_page_offset'?: (_qdrant_PointId__Output);
  'result': (_qdrant_RetrievedPoint__Output)[];
  'time'?: (number);
  '_next_page_offset'?: "next_page_offset";
}
