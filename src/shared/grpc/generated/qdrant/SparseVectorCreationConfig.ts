// Original file: proto/points.proto

import type { Modifier as _qdrant_Modifier, Modifier__Output as _qdrant_Modifier__Output } from '../qdrant/Modifier.js';
import type { Datatype as _qdrant_Datatype, Datatype__Output as _qdrant_Datatype__Output } from '../qdrant/Datatype.js';

export interface SparseVectorCreationConfig {
  'modifier'?: (_qdrant_Modifier);
  'datatype'?: (_qdrant_Datatype);
  '_modifier'?: "modifier";
  '_datatype'?: "datatype";
}

export interface SparseVectorCreationConfig__Output {
  'modifier'?: (_qdrant_Modifier__Output);
  'datatype'?: (_qdrant_Datatype__Output);
  '_modifier'?: "modifier";
  '_datatype'?: "datatype";
}
