// Original file: proto/collections.proto

import type { TokenizerType as _qdrant_TokenizerType, TokenizerType__Output as _qdrant_TokenizerType__Output } from '../qdrant/TokenizerType.js';
import type { Long } from '@grpc/proto-loader';

export interface TextIndexParams {
  'tokenizer'?: (_qdrant_TokenizerType);
  'lowercase'?: (boolean);
  'min_token_len'?: (number | string | Long);
  'max_token_len'?: (number | string | Long);
  'on_disk'?: (boolean);
  'phrase_matching'?: (boolean);
  '_lowercase'?: "lowercase";
  '_min_token_len'?: "min_token_len";
  '_max_token_len'?: "max_token_len";
  '_on_disk'?: "on_disk";
  '_phrase_matching'?: "phrase_matching";
}

export interface TextIndexParams__Output {
  'tokenizer'?: (_qdrant_TokenizerType__Output);
  'lowercase'?: (boolean);
  'min_token_len'?: (string);
  'max_token_len'?: (string);
  'on_disk'?: (boolean);
  'phrase_matching'?: (boolean);
  '_lowercase'?: "lowercase";
  '_min_token_len'?: "min_token_len";
  '_max_token_len'?: "max_token_len";
  '_on_disk'?: "on_disk";
  '_phrase_matching'?: "phrase_matching";
}
