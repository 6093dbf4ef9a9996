// Similarity search and the Query API's nearest-neighbour kinds. Each request becomes one
// SearchSpec per shard (k = limit + offset); shards answer their own top k and the results are
// merged here by score, ties broken by id, so the answer does not depend on the shard count.

import { QuiverError } from '../../shared/errors.js';
import { comparePointIds, parsePointId } from '../../shared/ids.js';
import type { SearchSpec } from '../../shared/protocol.js';
import type { QueryRequest, SearchRequest } from '../../shared/schemas/search.js';
import { DEFAULT_VECTOR, type CollectionMeta, type PointId, type ScoredPoint } from '../../shared/types.js';
import type { Engine } from '../engine.js';
import { checkVector, payloadSelector, refuseUnsupported, vectorSelector } from './convert.js';
import { parseFilter } from './filter-parse.js';

interface Planned {
  spec: SearchSpec;
  limit: number;
  offset: number;
  higherIsBetter: boolean;
}

interface Common {
  vectorName: string;
  vector: readonly number[];
  limit: number;
  offset: number;
  filter: unknown;
  params: SearchRequest['params'];
  scoreThreshold: number | null | undefined;
  withPayload: SearchRequest['with_payload'];
  withVector: SearchRequest['with_vector'];
  exclude: PointId[];
}

/** limit + offset per search: beyond this a request is refused rather than allowed to exhaust memory. */
export const MAX_RESULT_WINDOW = 100_000;

function plan(meta: CollectionMeta, c: Common): Planned {
  const params = meta.config.vectors[c.vectorName];
  if (params === undefined) throw QuiverError.badInput(`Wrong input: Not existing vector name error: ${c.vectorName}`);
  const query = checkVector(meta, c.vectorName, c.vector);
  const k = c.limit + c.offset;
  if (k > MAX_RESULT_WINDOW) throw QuiverError.badInput(`limit + offset must not exceed ${MAX_RESULT_WINDOW}, got ${k}`);
  const efConstruct = params.hnsw_config?.ef_construct ?? meta.config.hnsw_config.ef_construct;
  return {
    spec: {
      vector: c.vectorName,
      query,
      k,
      ef: c.params?.hnsw_ef ?? Math.max(efConstruct, k),
      exact: c.params?.exact === true,
      scoreThreshold: c.scoreThreshold ?? null,
      filter: parseFilter(c.filter),
      exclude: c.exclude,
      withPayload: payloadSelector(c.withPayload, false),
      withVector: vectorSelector(c.withVector),
    },
    limit: c.limit,
    offset: c.offset,
    higherIsBetter: params.distance === 'Cosine' || params.distance === 'Dot',
  };
}

async function run(engine: Engine, meta: CollectionMeta, plans: Planned[]): Promise<ScoredPoint[][]> {
  if (plans.length === 0) return [];
  const perShard = await engine.router.fanOut<'search'>(meta, { op: 'search', searches: plans.map((p) => p.spec) });
  return plans.map((p, i) => {
    const all = perShard.flatMap((shard) => shard[i] ?? []);
    const dir = p.higherIsBetter ? -1 : 1;
    all.sort((a, b) => (a.score !== b.score ? dir * (a.score - b.score) : comparePointIds(a.id, b.id)));
    return all.slice(p.offset, p.offset + p.limit);
  });
}

/** The options search and query requests share, in the planner's terms. */
function options(r: Pick<SearchRequest, 'offset' | 'filter' | 'params' | 'score_threshold' | 'with_payload' | 'with_vector'>) {
  return {
    offset: r.offset ?? 0,
    filter: r.filter,
    params: r.params,
    scoreThreshold: r.score_threshold,
    withPayload: r.with_payload,
    withVector: r.with_vector,
  };
}

function fromSearch(meta: CollectionMeta, r: SearchRequest): Planned {
  refuseUnsupported(r, ['shard_key']);
  const named = Array.isArray(r.vector) ? { name: DEFAULT_VECTOR, vector: r.vector } : r.vector;
  return plan(meta, {
    ...options(r),
    vectorName: named.name,
    vector: named.vector,
    limit: r.limit,
    exclude: [],
  });
}

export async function doSearchBatch(engine: Engine, name: string, reqs: SearchRequest[]): Promise<ScoredPoint[][]> {
  const meta = engine.collection(name);
  return run(engine, meta, reqs.map((r) => fromSearch(meta, r)));
}

export async function doSearch(engine: Engine, name: string, req: SearchRequest): Promise<ScoredPoint[]> {
  const [res] = await doSearchBatch(engine, name, [req]);
  return res ?? [];
}

const UNSUPPORTED_QUERY_KINDS = ['recommend', 'discover', 'context', 'order_by', 'fusion', 'rrf', 'random', 'formula', 'sample', 'mmr'];

/** Resolves a query to a vector: a vector as given, or the stored vector of a point (left out of the results). */
async function queryVector(
  engine: Engine,
  meta: CollectionMeta,
  q: unknown,
  using: string,
): Promise<{ vector: readonly number[]; exclude: PointId[] }> {
  if (Array.isArray(q)) {
    if (q.length > 0 && Array.isArray(q[0])) throw QuiverError.badInput('Multi-vector queries are not supported');
    return { vector: q as number[], exclude: [] };
  }
  if (typeof q === 'number' || typeof q === 'string') {
    const id = parsePointId(q);
    const shard = engine.router.shardOf(meta, id);
    const [rec] = await engine.router.call<'retrieve'>(meta, shard, {
      op: 'retrieve',
      ids: [id],
      withPayload: { kind: 'none' },
      withVector: { kind: 'names', names: [using] },
    });
    if (rec === undefined) throw QuiverError.notFound(`No point with id ${id} found`);
    const v = rec.vector;
    const vec = Array.isArray(v) ? v : v?.[using];
    if (vec === undefined) throw QuiverError.badInput(`Point ${id} has no vector '${using}'`);
    return { vector: vec, exclude: [id] };
  }
  if (q !== null && typeof q === 'object') {
    const o = q as Record<string, unknown>;
    if ('nearest' in o) return queryVector(engine, meta, o.nearest, using);
    if ('indices' in o && 'values' in o) throw QuiverError.badInput('Sparse vector queries are not supported yet');
    const kind = Object.keys(o)[0] ?? '(empty)';
    if (UNSUPPORTED_QUERY_KINDS.includes(kind)) throw QuiverError.badInput(`Query kind '${kind}' is not supported yet`);
    throw QuiverError.badInput(`Unknown query kind '${kind}'`);
  }
  throw QuiverError.badInput('query: expected a vector, a point id or a query object');
}

async function planQuery(engine: Engine, meta: CollectionMeta, r: QueryRequest): Promise<Planned> {
  refuseUnsupported(r, ['prefetch', 'lookup_from', 'shard_key']);
  if (r.query === undefined || r.query === null) throw QuiverError.badInput('query is required');
  const using = r.using ?? DEFAULT_VECTOR;
  const { vector, exclude } = await queryVector(engine, meta, r.query, using);
  return plan(meta, {
    ...options(r),
    vectorName: using,
    vector,
    limit: r.limit ?? 10,
    exclude,
  });
}

export async function doQueryBatch(engine: Engine, name: string, reqs: QueryRequest[]): Promise<{ points: ScoredPoint[] }[]> {
  const meta = engine.collection(name);
  const plans = await Promise.all(reqs.map((r) => planQuery(engine, meta, r)));
  return (await run(engine, meta, plans)).map((points) => ({ points }));
}

export async function doQuery(engine: Engine, name: string, req: QueryRequest): Promise<{ points: ScoredPoint[] }> {
  const [res] = await doQueryBatch(engine, name, [req]);
  return res ?? { points: [] };
}
