// Original file: proto/points.proto

import type { PrefetchQuery as _qdrant_PrefetchQuery, PrefetchQuery__Output as _qdrant_PrefetchQuery__Output } from '../qdrant/PrefetchQuery.js';
import type { Query as _qdrant_Query, Query__Output as _qdrant_Query__Output } from '../qdrant/Query.js';
import type { Filter as _qdrant_Filter, Filter__Output as _qdrant_Filter__Output } from '../qdrant/Filter.js';
import type { SearchParams as _qdrant_SearchParams, SearchParams__Output as _qdrant_SearchParams__Output } from '../qdrant/SearchParams.js';
import type { LookupLocation as _qdrant_LookupLocation, LookupLocation__Output as _qdrant_LookupLocation__Output } from '../qdrant/LookupLocation.js';
import type { Long } from '@grpc/proto-loader';

export interface PrefetchQuery {
  'prefetch'?: (_qdrant_PrefetchQuery)[];
  'query'?: (_qdrant_Query | null);
  'using'?: (string);
  'filter'?: (_qdrant_Filter | null);
  'params'?: (_qdrant_SearchParams | null);
  'score_threshold'?: (number | string);
  'limit'?: (number | string | Long);
  'lookup_from'?: (_qdrant_LookupLocation | null);
  '_query'?: "query";
  '_using'?: "using";
  '_filter'?: "filter";
  '_params'?: "params";
  '_score_threshold'?: "score_threshold";
  '_limit'?: "limit";
  '_lookup_from'?: "lookup_from";
}

export interface PrefetchQuery__Output {
  'prefetch': (_qdrant_PrefetchQuery__Output)[];
  'query'?: (_qdrant_Query__Output);
  'using'?: (string);
  'filter'?: (_qdrant_Filter__Output);
  'params'?: (_qdrant_SearchParams__Output);
  'score_threshold'?: (number);
  'limit'?: (string);
  'lookup_from'?: (_qdrant_LookupLocation__Output);
  '_query'?: "query";
  '_using'?: "using";
  '_filter'?: "filter";
  '_params'?: "params";
  '_score_threshold'?: "score_threshold";
  '_limit'?: "limit";
  '_lookup_from'?: "lookup_from";
}
