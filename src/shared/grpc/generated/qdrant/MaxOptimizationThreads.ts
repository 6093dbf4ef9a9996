// Original file: proto/collections.proto

import type { Long } from '@grpc/proto-loader';

// Original file: proto/collections.proto

export const _qdrant_MaxOptimizationThreads_Setting = {
  Auto: 'Auto',
} as const;

export type _qdrant_MaxOptimizationThreads_Setting =
  | 'Auto'
  | 0

export type _qdrant_MaxOptimizationThreads_Setting__Output = typeof _qdrant_MaxOptimizationThreads_Setting[keyof typeof _qdrant_MaxOptimizationThreads_Setting]

export interface MaxOptimizationThreads {
  'value'?: (number | string | Long);
  'setting'?: (_qdrant_MaxOptimizationThreads_Setting);
  'variant'?: "value"|"setting";
}

export interface MaxOptimizationThreads__Output {
  'value'?: (string);
  'setting'?: (_qdrant_MaxOptimizationThreads_Setting__Output);
  'variant'?: "value"|"setting";
}
