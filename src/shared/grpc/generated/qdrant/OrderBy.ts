// Original file: proto/points.proto

import type { Direction as _qdrant_Direction, Direction__Output as _qdrant_Direction__Output } from '../qdrant/Direction.js';
import type { StartFrom as _qdrant_StartFrom, StartFrom__Output as _qdrant_StartFrom__Output } from '../qdrant/StartFrom.js';

export interface OrderBy {
  'key'?: (string);
  'direction'?: (_qdrant_Direction);
  'start_from'?: (_qdrant_StartFrom | null);
  '_direction'?: "direction";
  '_start_from'?: "start_from";
}

export interface OrderBy__Output {
  'key'?: (string);
  'direction'?: (_qdrant_Direction__Output);
  'start_from'?: (_qdrant_StartFrom__Output);
  '_direction'?: "direction";
  '_start_from'?: "start_from";
}
