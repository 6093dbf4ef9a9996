// Original file: proto/collections.proto

import type { StrictModeSparse as _qdrant_StrictModeSparse, StrictModeSparse__Output as _qdrant_StrictModeSparse__Output } from '../qdrant/StrictModeSparse.js';

export interface StrictModeSparseConfig {
  'sparse_config'?: ({[key: string]: _qdrant_StrictModeSparse});
}

export interface StrictModeSparseConfig__Output {
  'sparse_config': ({[key: string]: _qdrant_StrictModeSparse__Output});
}
