// Original file: proto/collections.proto

import type { TokenizerType as _qdrant_TokenizerType, TokenizerType__Output as _qdrant_TokenizerType__Output } from '../qdrant/TokenizerType.js';
import type { StopwordsSet as _qdrant_StopwordsSet, StopwordsSet__Output as _qdrant_StopwordsSet__Output } from '../qdrant/StopwordsSet.js';
import type { StemmingAlgorithm as _qdrant_StemmingAlgorithm, StemmingAlgorithm__Output as _qdrant_StemmingAlgorithm__Output } from '../qdrant/StemmingAlgorithm.js';
import type { Memory as _qdrant_Memory, Memory__Output as _qdrant_Memory__Output } from '../qdrant/Memory.js';
import type { Long } from '@grpc/proto-loader';

export interface TextIndexParams {
  'tokenizer'?: (_qdrant_TokenizerType);
  'lowercase'?: (boolean);
  'min_token_len'?: (number | string | Long);
  'max_token_len'?: (number | string | Long);
  'on_disk'?: (boolean);
  'stopwords'?: (_qdrant_StopwordsSet | null);
  'phrase_matching'?: (boolean);
  'stemmer'?: (_qdrant_StemmingAlgorithm | null);
  'ascii_folding'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory);
  '_lowercase'?: "lowercase";
  '_min_token_len'?: "min_token_len";
  '_max_token_len'?: "max_token_len";
  '_on_disk'?: "on_disk";
  '_stopwords'?: "stopwords";
  '_phrase_matching'?: "phrase_matching";
  '_stemmer'?: "stemmer";
  '_ascii_folding'?: "ascii_folding";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}

export interface TextIndexParams__Output {
  'tokenizer'?: (_qdrant_TokenizerType__Output);
  'lowercase'?: (boolean);
  'min_token_len'?: (string);
  'max_token_len'?: (string);
  'on_disk'?: (boolean);
  'stopwords'?: (_qdrant_StopwordsSet__Output);
  'phrase_matching'?: (boolean);
  'stemmer'?: (_qdrant_StemmingAlgorithm__Output);
  'ascii_folding'?: (boolean);
  'enable_hnsw'?: (boolean);
  'memory'?: (_qdrant_Memory__Output);
  '_lowercase'?: "lowercase";
  '_min_token_len'?: "min_token_len";
  '_max_token_len'?: "max_token_len";
  '_on_disk'?: "on_disk";
  '_stopwords'?: "stopwords";
  '_phrase_matching'?: "phrase_matching";
  '_stemmer'?: "stemmer";
  '_ascii_folding'?: "ascii_folding";
  '_enable_hnsw'?: "enable_hnsw";
  '_memory'?: "memory";
}
