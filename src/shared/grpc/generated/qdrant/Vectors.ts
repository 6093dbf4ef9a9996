// Original file: proto/points.proto

import type { Vector as _qdrant_Vector, Vector__Output as _qdrant_Vector__Output } from '../qdrant/Vector.js';
import type { NamedVectors as _qdrant_NamedVectors, NamedVectors__Output as _qdrant_NamedVectors__Output } from '../qdrant/NamedVectors.js';

export interface Vectors {
  'vector'?: (_qdrant_Vector | null);
  'vectors'?: (_qdrant_NamedVectors | null);
  'vectors_options'?: "vector"|"vectors";
}

export interface Vectors__Output {
  'vector'?: (_qdrant_Vector__Output);
  'vectors'?: (_qdrant_NamedVectors__Output);
  'vectors_options'?: "vector"|"vectors";
}
