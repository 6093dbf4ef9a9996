// Similarity search. Each request becomes one SearchSpec per shard (k = limit + offset); shards
// answer their own top k and the results are merged here by score, ties broken by id, so the
// answer does not depend on the shard count. The Query API (query.ts) plans through here too.

import { QuiverError } from '../../shared/errors.js';
import { comparePointIds } from '../../shared/ids.js';
import type { SearchSpec } from '../../shared/protocol.js';
import type { Filter } from '../../shared/filter.js';
import type { SearchRequest } from '../../shared/schemas/search.js';
import { DEFAULT_VECTOR, type CollectionMeta, type PointId, type ScoredPoint, type SparseVector } from '../../shared/types.js';
import type { Engine } from '../engine.js';
import { checkSparse, checkVector, payloadSelector, refuseUnsupported, vectorSelector, withVectorOf } from './convert.js';
import { parseFilter } from './filter-parse.js';

export interface Planned {
  spec: SearchSpec;
  limit: number;
  offset: number;
  higherIsBetter: boolean;
  /** The sparse query still needs its weights multiplied by the collection's idf. */
  idf: boolean;
}

export interface Common {
  vectorName: string;
  vector: readonly number[] | SparseVector;
  limit: number;
  offset: number;
  filter: Filter | null;
  params: SearchRequest['params'];
  scoreThreshold: number | null | undefined;
  withPayload: SearchRequest['with_payload'];
  withVector: SearchRequest['with_vector'];
  exclude: PointId[];
  /** Score only these points (re-ranking prefetched candidates), or null for the whole collection. */
  only?: PointId[] | null;
}

/** limit + offset per search: beyond this a request is refused rather than allowed to exhaust memory. */
export const MAX_RESULT_WINDOW = 100_000;

export function plan(meta: CollectionMeta, c: Common): Planned {
  const k = c.limit + c.offset;
  if (k > MAX_RESULT_WINDOW) throw QuiverError.badInput(`limit + offset must not exceed ${MAX_RESULT_WINDOW}, got ${k}`);
  const common = {
    vector: c.vectorName,
    k,
    exact: c.params?.exact === true,
    scoreThreshold: c.scoreThreshold ?? null,
    filter: c.filter,
    exclude: c.exclude,
    only: c.only ?? null,
    withPayload: payloadSelector(c.withPayload, false),
    withVector: vectorSelector(c.withVector, meta),
  };
  const sparseParams = meta.config.sparse_vectors[c.vectorName];
  if (sparseParams !== undefined) {
    if (Array.isArray(c.vector)) throw QuiverError.badInput(`Vector '${c.vectorName}' is sparse: send {indices, values}`);
    const sparse = checkSparse(meta, c.vectorName, c.vector as SparseVector);
    return {
      spec: { ...common, query: new Float32Array(0), sparse, ef: 0 },
      limit: c.limit,
      offset: c.offset,
      higherIsBetter: true,
      idf: sparseParams.modifier === 'idf',
    };
  }
  if (!Array.isArray(c.vector)) {
    if (meta.config.vectors[c.vectorName] === undefined) throw QuiverError.badInput(`Wrong input: Not existing vector name error: ${c.vectorName}`);
    throw QuiverError.badInput(`Vector '${c.vectorName}' is dense: send an array of numbers`);
  }
  const query = checkVector(meta, c.vectorName, c.vector as readonly number[]);
  const params = meta.config.vectors[c.vectorName]!;
  const efConstruct = params.hnsw_config?.ef_construct ?? meta.config.hnsw_config.ef_construct;
  return {
    spec: { ...common, query, sparse: null, ef: c.params?.hnsw_ef ?? Math.max(efConstruct, k) },
    limit: c.limit,
    offset: c.offset,
    higherIsBetter: params.distance === 'Cosine' || params.distance === 'Dot',
    idf: false,
  };
}

/** Qdrant's idf: ln((N - n + 0.5) / (n + 0.5) + 1), N the points having the vector, n those having the term. */
export function idf(points: number, df: number): number {
  return Math.log((points - df + 0.5) / (df + 0.5) + 1);
}

/** Multiplies each idf-modified sparse query by collection-wide idf weights of its terms. */
async function applyIdf(engine: Engine, meta: CollectionMeta, plans: Planned[]): Promise<void> {
  await Promise.all(
    plans
      .filter((p) => p.idf && p.spec.sparse !== null)
      .map(async (p) => {
        const sparse = p.spec.sparse!;
        const stats = await engine.router.fanOut<'sparseStats'>(meta, { op: 'sparseStats', vector: p.spec.vector, terms: [...sparse.indices] });
        const total = stats.reduce((n, s) => n + s.points, 0);
        const values = new Float32Array(sparse.values.length);
        for (let i = 0; i < values.length; i++) {
          const df = stats.reduce((n, s) => n + (s.df[i] ?? 0), 0);
          values[i] = sparse.values[i]! * idf(total, df);
        }
        p.spec.sparse = { indices: sparse.indices, values };
      }),
  );
}

export async function run(engine: Engine, meta: CollectionMeta, plans: Planned[]): Promise<ScoredPoint[][]> {
  if (plans.length === 0) return [];
  await applyIdf(engine, meta, plans);
  const perShard = await engine.router.fanOut<'search'>(meta, { op: 'search', searches: plans.map((p) => p.spec) });
  return plans.map((p, i) => {
    const all = perShard.flatMap((shard) => shard[i] ?? []);
    const dir = p.higherIsBetter ? -1 : 1;
    all.sort((a, b) => (a.score !== b.score ? dir * (a.score - b.score) : comparePointIds(a.id, b.id)));
    return all.slice(p.offset, p.offset + p.limit);
  });
}

/** The options search and query requests share, in the planner's terms. */
export function options(r: Pick<SearchRequest, 'offset' | 'filter' | 'params' | 'score_threshold' | 'with_payload' | 'with_vector' | 'with_vectors'>) {
  return {
    offset: r.offset ?? 0,
    filter: parseFilter(r.filter),
    params: r.params,
    scoreThreshold: r.score_threshold,
    withPayload: r.with_payload,
    withVector: withVectorOf(r),
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

export { doQuery, doQueryBatch } from './query.js';
