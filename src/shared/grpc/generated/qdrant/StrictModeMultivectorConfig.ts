// Original file: proto/collections.proto

import type { StrictModeMultivector as _qdrant_StrictModeMultivector, StrictModeMultivector__Output as _qdrant_StrictModeMultivector__Output } from '../qdrant/StrictModeMultivector.js';

export interface StrictModeMultivectorConfig {
  'multivector_config'?: ({[key: string]: _qdrant_StrictModeMultivector});
}

export interface StrictModeMultivectorConfig__Output {
  'multivector_config': ({[key: string]: _qdrant_StrictModeMultivector__Output});
}
