// Original file: proto/collections.proto

import type { ScalarQuantization as _qdrant_ScalarQuantization, ScalarQuantization__Output as _qdrant_ScalarQuantization__Output } from '../qdrant/ScalarQuantization.js';
import type { ProductQuantization as _qdrant_ProductQuantization, ProductQuantization__Output as _qdrant_ProductQuantization__Output } from '../qdrant/ProductQuantization.js';
import type { BinaryQuantization as _qdrant_BinaryQuantization, BinaryQuantization__Output as _qdrant_BinaryQuantization__Output } from '../qdrant/BinaryQuantization.js';
import type { TurboQuantization as _qdrant_TurboQuantization, TurboQuantization__Output as _qdrant_TurboQuantization__Output } from '../qdrant/TurboQuantization.js';

export interface QuantizationConfig {
  'scalar'?: (_qdrant_ScalarQuantization | null);
  'product'?: (_qdrant_ProductQuantization | null);
  'binary'?: (_qdrant_BinaryQuantization | null);
  'turboquant'?: (_qdrant_TurboQuantization | null);
  'quantization'?: "scalar"|"product"|"binary"|"turboquant";
}

export interface QuantizationConfig__Output {
  'scalar'?: (_qdrant_ScalarQuantization__Output);
  'product'?: (_qdrant_ProductQuantization__Output);
  'binary'?: (_qdrant_BinaryQuantization__Output);
  'turboquant'?: (_qdrant_TurboQuantization__Output);
  'quantization'?: "scalar"|"product"|"binary"|"turboquant";
}
