// Original file: proto/points.proto

import type { Distance as _qdrant_Distance, Distance__Output as _qdrant_Distance__Output } from '../qdrant/Distance.js';
import type { MultiVectorConfig as _qdrant_MultiVectorConfig, MultiVectorConfig__Output as _qdrant_MultiVectorConfig__Output } from '../qdrant/MultiVectorConfig.js';
import type { Datatype as _qdrant_Datatype, Datatype__Output as _qdrant_Datatype__Output } from '../qdrant/Datatype.js';
import type { Long } from '@grpc/proto-loader';

export interface DenseVectorCreationConfig {
  'size'?: (number | string | Long);
  'distance'?: (_qdrant_Distance);
  'multivector_config'?: (_qdrant_MultiVectorConfig | null);
  'datatype'?: (_qdrant_Datatype);
  '_multivector_config'?: "multivector_config";
  '_datatype'?: "datatype";
}

export interface DenseVectorCreationConfig__Output {
  'size'?: (string);
  'distance'?: (_qdrant_Distance__Output);
  'multivector_config'?: (_qdrant_MultiVectorConfig__Output);
  'datatype'?: (_qdrant_Datatype__Output);
  '_multivector_config'?: "multivector_config";
  '_datatype'?: "datatype";
}
