// Original file: proto/points.proto

import type { PointId as _qdrant_PointId, PointId__Output as _qdrant_PointId__Output } from '../qdrant/PointId.js';
import type { Long } from '@grpc/proto-loader';

export interface SearchMatrixOffsets {
  'offsets_row'?: (number | string | Long)[];
  'offsets_col'?: (number | string | Long)[];
  'scores'?: (number | string)[];
  'ids'?: (_qdrant_PointId)[];
}

export interface SearchMatrixOffsets__Output {
  'offsets_row': (string)[];
  'offsets_col': (string)[];
  'scores': (number)[];
  'ids': (_qdrant_PointId__Output)[];
}
