// Original file: proto/points.proto

import type { Long } from '@grpc/proto-loader';

export interface OrderValue {
  'int'?: (number | string | Long);
  'float'?: (number | string);
  'variant'?: "int"|"float";
}

export interface OrderValue__Output {
  'int'?: (string);
  'float'?: (number);
  'variant'?: "int"|"float";
}
