// Original file: proto/points.proto

import type { VectorOutput as _qdrant_VectorOutput, VectorOutput__Output as _qdrant_VectorOutput__Output } from '../qdrant/VectorOutput.js';
import type { NamedVectorsOutput as _qdrant_NamedVectorsOutput, NamedVectorsOutput__Output as _qdrant_NamedVectorsOutput__Output } from '../qdrant/NamedVectorsOutput.js';

export interface VectorsOutput {
  'vector'?: (_qdrant_VectorOutput | null);
  'vectors'?: (_qdrant_NamedVectorsOutput | null);
  'vectors_options'?: "vector"|"vectors";
}

export interface VectorsOutput__Output {
  'vector'?: (_qdrant_VectorOutput__Output);
  'vectors'?: (_qdrant_NamedVectorsOutput__Output);
  'vectors_options'?: "vector"|"vectors";
}
