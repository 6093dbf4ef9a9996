// Original file: proto/points.proto

import type { VectorOutput as _qdrant_VectorOutput, VectorOutput__Output as _qdrant_VectorOutput__Output } from '../qdrant/VectorOutput.js';

export interface NamedVectorsOutput {
  'vectors'?: ({[key: string]: _qdrant_VectorOutput});
}

export interface NamedVectorsOutput__Output {
  'vectors': ({[key: string]: _qdrant_VectorOutput__Output});
}
