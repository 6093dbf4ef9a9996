// Original file: proto/collections.proto

import type { VectorParamsDiff as _qdrant_VectorParamsDiff, VectorParamsDiff__Output as _qdrant_VectorParamsDiff__Output } from '../qdrant/VectorParamsDiff.js';
import type { VectorParamsDiffMap as _qdrant_VectorParamsDiffMap, VectorParamsDiffMap__Output as _qdrant_VectorParamsDiffMap__Output } from '../qdrant/VectorParamsDiffMap.js';

export interface VectorsConfigDiff {
  'params'?: (_qdrant_VectorParamsDiff | null);
  'params_map'?: (_qdrant_VectorParamsDiffMap | null);
  'config'?: "params"|"params_map";
}

export interface VectorsConfigDiff__Output {
  'params'?: (_qdrant_VectorParamsDiff__Output);
  'params_map'?: (_qdrant_VectorParamsDiffMap__Output);
  'config'?: "params"|"params_map";
}
