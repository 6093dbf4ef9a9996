// Original file: proto/qdrant_common.proto

import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';

export interface NestedCondition {
  'key'?: (string);
  'filter'?: (_qdrant_Filter | null);
}

export interface NestedCondition__Output {
  'key'?: (string);
  'filter'?: (_qdrant_Filter__Output);
}
