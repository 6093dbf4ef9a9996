// Search and query requests in REST form: search params, the query kinds, prefetches, order_by.
// Kinds the service does not offer keep their REST name, so the service refuses them by name.

import type { QueryRequest, SearchParams as SearchParamsIn, SearchRequest } from '../../schemas/search.js';
import type { ContextInput__Output } from '../generated/qdrant/ContextInput.js';
import type { LookupLocation__Output } from '../generated/qdrant/LookupLocation.js';
import type { OrderBy__Output } from '../generated/qdrant/OrderBy.js';
import type { PrefetchQuery__Output } from '../generated/qdrant/PrefetchQuery.js';
import type { Query__Output } from '../generated/qdrant/Query.js';
import type { QueryPoints__Output } from '../generated/qdrant/QueryPoints.js';
import type { SearchParams__Output } from '../generated/qdrant/SearchParams.js';
import type { SearchPoints__Output } from '../generated/qdrant/SearchPoints.js';
import type { VectorInput__Output } from '../generated/qdrant/VectorInput.js';
import { lower, num, opt, plain, type Json } from './common.js';
import { conditionIn, filterIn, shardKeyIn, timestampIn, withPayloadIn, withVectorIn } from './filters.js';
import { pointIdIn, structIn, vectorFormIn } from './values.js';
import type { DecayParamsExpression__Output } from '../generated/qdrant/DecayParamsExpression.js';
import type { Expression__Output } from '../generated/qdrant/Expression.js';

function searchParamsIn(p: SearchParams__Output | undefined): SearchParamsIn | undefined {
  if (p === undefined) return undefined;
  return {
    ...opt('hnsw_ef', num(p.hnsw_ef)),
    ...opt('exact', p.exact),
    ...opt('quantization', p.quantization && plain(p.quantization)),
    ...opt('indexed_only', p.indexed_only),
    ...opt('acorn', p.acorn && plain(p.acorn)),
  };
}

export function searchIn(r: SearchPoints__Output): SearchRequest {
  let vector: SearchRequest['vector'] = r.vector_name !== undefined ? { name: r.vector_name, vector: r.vector } : r.vector;
  // A sparse search sends the values in `vector` and their indices beside them.
  if (r.sparse_indices !== undefined) vector = { name: r.vector_name ?? '', vector: { indices: r.sparse_indices.data, values: r.vector } };
  return {
    vector,
    limit: Number(r.limit ?? 0),
    ...opt('filter', filterIn(r.filter)),
    ...opt('params', searchParamsIn(r.params)),
    ...opt('offset', num(r.offset)),
    ...opt('with_payload', withPayloadIn(r.with_payload)),
    ...opt('with_vector', withVectorIn(r.with_vectors)),
    ...opt('score_threshold', r.score_threshold),
    ...shardKeyIn(r.shard_key_selector),
  };
}

const UNARY_OPS = ['neg', 'abs', 'sqrt', 'exp', 'log10', 'ln'] as const;

/** A formula Expression in REST form (a missing one as null, which the service refuses). */
function expressionIn(e: Expression__Output | undefined | null): unknown {
  if (e === undefined || e === null || e.variant === undefined) return null;
  const decay = (d: DecayParamsExpression__Output | undefined): unknown => ({
    x: expressionIn(d?.x),
    ...opt('target', d?.target ? expressionIn(d.target) : undefined),
    ...opt('scale', d?.scale),
    ...opt('midpoint', d?.midpoint),
  });
  switch (e.variant) {
    case 'constant':
      return e.constant ?? 0;
    case 'variable':
      return e.variable ?? '';
    case 'condition':
      return e.condition ? conditionIn(e.condition) : {};
    case 'geo_distance':
      return { geo_distance: { origin: { lat: e.geo_distance?.origin?.lat ?? 0, lon: e.geo_distance?.origin?.lon ?? 0 }, to: e.geo_distance?.to ?? '' } };
    case 'datetime':
      return { datetime: e.datetime ?? '' };
    case 'datetime_key':
      return { datetime_key: e.datetime_key ?? '' };
    case 'mult':
      return { mult: (e.mult?.mult ?? []).map(expressionIn) };
    case 'sum':
      return { sum: (e.sum?.sum ?? []).map(expressionIn) };
    case 'div':
      return { div: { left: expressionIn(e.div?.left), right: expressionIn(e.div?.right), ...opt('by_zero_default', e.div?.by_zero_default) } };
    case 'pow':
      return { pow: { base: expressionIn(e.pow?.base), exponent: expressionIn(e.pow?.exponent) } };
    case 'exp_decay':
    case 'gauss_decay':
    case 'lin_decay':
      return { [e.variant]: decay(e[e.variant]) };
    default: {
      const op = UNARY_OPS.find((u) => u === e.variant);
      return op === undefined ? null : { [op]: expressionIn(e[op]) };
    }
  }
}

/** An enum value in REST's snake case: BestScore -> best_score. */
const snake = (s: string): string => s.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();

/** A ContextInput's pairs in REST form, each example converted. */
function pairsIn(c: ContextInput__Output | undefined): { positive: unknown; negative: unknown }[] {
  return (c?.pairs ?? []).map((p) => ({ positive: vectorInputIn(p.positive), negative: vectorInputIn(p.negative) }));
}

function vectorInputIn(v: VectorInput__Output | undefined): unknown {
  if (v === undefined) return undefined;
  return v.variant === 'id' ? pointIdIn(v.id) : vectorFormIn(v.variant, v);
}

interface OrderByIn {
  key: string;
  direction?: 'asc' | 'desc';
  start_from?: number | string;
}

function orderByIn(o: OrderBy__Output): OrderByIn {
  const s = o.start_from;
  const start =
    s?.value === 'float' ? s.float : s?.value === 'integer' ? Number(s.integer) : s?.value === 'timestamp' && s.timestamp ? timestampIn(s.timestamp) : s?.datetime;
  return { key: o.key ?? '', ...opt('direction', lower(o.direction)), ...opt('start_from', start) };
}

/** A query in REST form. Kinds the service does not offer keep their REST name, so it refuses them by name. */
function queryKindIn(q: Query__Output | undefined): unknown {
  if (q?.variant === undefined) return undefined;
  switch (q.variant) {
    case 'nearest':
      return vectorInputIn(q.nearest);
    case 'nearest_with_mmr':
      return { nearest: vectorInputIn(q.nearest_with_mmr?.nearest), mmr: plain(q.nearest_with_mmr?.mmr ?? {}) };
    case 'recommend':
      return {
        recommend: {
          positive: (q.recommend?.positive ?? []).map(vectorInputIn),
          negative: (q.recommend?.negative ?? []).map(vectorInputIn),
          ...opt('strategy', q.recommend?.strategy === undefined ? undefined : snake(q.recommend.strategy)),
        },
      };
    case 'discover':
      return { discover: { target: vectorInputIn(q.discover?.target), context: pairsIn(q.discover?.context) } };
    case 'context':
      return { context: pairsIn(q.context) };
    case 'formula':
      return {
        formula: expressionIn(q.formula?.expression),
        ...opt('defaults', q.formula && Object.keys(q.formula.defaults).length > 0 ? structIn(q.formula.defaults) : undefined),
      };
    case 'relevance_feedback': {
      const f = q.relevance_feedback;
      const naive = f?.strategy?.naive;
      return {
        relevance_feedback: {
          target: vectorInputIn(f?.target),
          // proto3 leaves zeros off the wire: an absent number is 0.
          feedback: (f?.feedback ?? []).map((it) => ({ example: vectorInputIn(it.example), score: it.score ?? 0 })),
          ...opt('strategy', naive && { naive: { a: naive.a ?? 0, b: naive.b ?? 0, c: naive.c ?? 0 } }),
        },
      };
    }
    case 'order_by':
      return { order_by: q.order_by ? orderByIn(q.order_by) : {} };
    case 'fusion':
      return { fusion: lower(q.fusion) };
    case 'sample':
      return { sample: lower(q.sample) };
    case 'rrf':
      return { rrf: { ...opt('k', q.rrf?.k), ...opt('weights', q.rrf?.weights.length ? q.rrf.weights : undefined) } };
    default:
      return { [q.variant]: {} };
  }
}

const lookupIn = (l: LookupLocation__Output | undefined): Json | undefined =>
  l && { collection: l.collection_name ?? '', ...opt('vector', l.vector_name) };

function prefetchIn(p: PrefetchQuery__Output): Json {
  return {
    ...opt('prefetch', p.prefetch.length > 0 ? p.prefetch.map(prefetchIn) : undefined),
    ...opt('query', queryKindIn(p.query)),
    ...opt('using', p.using),
    ...opt('filter', filterIn(p.filter)),
    ...opt('params', searchParamsIn(p.params)),
    ...opt('score_threshold', p.score_threshold),
    ...opt('limit', num(p.limit)),
    ...opt('lookup_from', lookupIn(p.lookup_from)),
  };
}

export function queryIn(r: QueryPoints__Output): QueryRequest {
  const query = queryKindIn(r.query);
  return {
    ...opt('prefetch', r.prefetch.length > 0 ? r.prefetch.map(prefetchIn) : undefined),
    ...opt('query', query as QueryRequest['query']),
    ...opt('using', r.using),
    ...opt('filter', filterIn(r.filter)),
    ...opt('params', searchParamsIn(r.params)),
    ...opt('score_threshold', r.score_threshold),
    ...opt('limit', num(r.limit)),
    ...opt('offset', num(r.offset)),
    ...opt('with_vector', withVectorIn(r.with_vectors)),
    ...opt('with_payload', withPayloadIn(r.with_payload)),
    ...opt('lookup_from', lookupIn(r.lookup_from)),
    ...shardKeyIn(r.shard_key_selector),
  };
}

export function orderByRequestIn(o: OrderBy__Output | undefined): OrderByIn | undefined {
  return o === undefined ? undefined : orderByIn(o);
}
