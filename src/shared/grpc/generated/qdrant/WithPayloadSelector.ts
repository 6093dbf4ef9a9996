// Original file: proto/points.proto

import type { PayloadIncludeSelector as _qdrant_PayloadIncludeSelector, PayloadIncludeSelector__Output as _qdrant_PayloadIncludeSelector__Output } from '../qdrant/PayloadIncludeSelector.js';
import type { PayloadExcludeSelector as _qdrant_PayloadExcludeSelector, PayloadExcludeSelector__Output as _qdrant_PayloadExcludeSelector__Output } from '../qdrant/PayloadExcludeSelector.js';

export interface WithPayloadSelector {
  'enable'?: (boolean);
  'include'?: (_qdrant_PayloadIncludeSelector | null);
  'exclude'?: (_qdrant_PayloadExcludeSelector | null);
  'selector_options'?: "enable"|"include"|"exclude";
}

export interface WithPayloadSelector__Output {
  'enable'?: (boolean);
  'include'?: (_qdrant_PayloadIncludeSelector__Output);
  'exclude'?: (_qdrant_PayloadExcludeSelector__Output);
  'selector_options'?: "enable"|"include"|"exclude";
}
