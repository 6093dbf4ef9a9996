// Original file: proto/points.proto

import type { ContextInputPair as _qdrant_ContextInputPair, ContextInputPair__Output as _qdrant_ContextInputPair__Output } from '../qdrant/ContextInputPair.js';

export interface ContextInput {
  'pairs'?: (_qdrant_ContextInputPair)[];
}

export interface ContextInput__Output {
  'pairs': (_qdrant_ContextInputPair__Output)[];
}
