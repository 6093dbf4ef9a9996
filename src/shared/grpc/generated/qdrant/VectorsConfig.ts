// Original file: proto/collections.proto

import type { VectorParams as _qdrant_VectorParams, VectorParams__Output as _qdrant_VectorParams__Output } from '../qdrant/VectorParams.js';
import type { VectorParamsMap as _qdrant_VectorParamsMap, VectorParamsMap__Output as _qdrant_VectorParamsMap__Output } from '../qdrant/VectorParamsMap.js';

export interface VectorsConfig {
  'params'?: (_qdrant_VectorParams | null);
  'params_map'?: (_qdrant_VectorParamsMap | null);
  'config'?: "params"|"params_map";
}

export interface VectorsConfig__Output {
  'params'?: (_qdrant_VectorParams__Output);
  'params_map'?: (_qdrant_VectorParamsMap__Output);
  'config'?: "params"|"params_map";
}
