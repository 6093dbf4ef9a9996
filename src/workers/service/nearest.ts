// Nearest-vector search planning, shared by legacy search (search.ts) and the Query API
// (query.ts). Each request becomes one SearchSpec per shard (k = limit + offset); shards answer
// their own top k and the results are merged here by score, ties broken by id, so the answer does
// not depend on the shard count. Sparse queries on an idf vector get their weights from every
// shard's term statistics first.

import { QuiverError } from '../../shared/errors.js';
import { effectiveHnsw } from '../../shared/hnsw-params.js';
import { comparePointIds } from '../../shared/ids.js';
import type { SearchSpec } from '../../shared/protocol.js';
import type { Filter } from '../../shared/filter.js';
import type { QuantizationSearchParams, SearchRequest } from '../../shared/schemas/search.js';
import type { CollectionMeta, PointId, QueryVector, ScoredPoint, SparseVector } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { checkSparse, checkVector, payloadSelector, vectorSelector } from './request-forms.js';
import { sampleRecall } from './live-recall.js';

export interface PlannedSearch {
  spec: SearchSpec;
  limit: number;
  offset: number;
  higherIsBetter: boolean;
  /** The sparse query still needs its weights multiplied by the collection's idf. */
  idf: boolean;
}

/** One nearest-vector search, as search and query requests both describe it. */
export interface NearestRequest {
  vectorName: string;
  vector: QueryVector;
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

/** Qdrant's QuantizationSearchParams as the shard takes them (null: the defaults). */
function quantizationParams(q: QuantizationSearchParams | null | undefined): SearchSpec['quantization'] {
  if (q === undefined || q === null) return null;
  return { ignore: q.ignore === true, rescore: q.rescore ?? null, oversampling: q.oversampling ?? null };
}

/**
 * The shard-side spec of one search: vector checked (and normalised or sparse-sorted), k = limit +
 * offset, ef and score direction from the vector's params. The caller has checked the window.
 */
export function planNearest(meta: CollectionMeta, c: NearestRequest): PlannedSearch {
  const k = c.limit + c.offset;
  const common = {
    vector: c.vectorName,
    k,
    exact: c.params?.exact === true,
    quantization: quantizationParams(c.params?.quantization),
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
    if (meta.config.vectors[c.vectorName] === undefined) throw QuiverError.unknownVector(c.vectorName);
    throw QuiverError.badInput(`Vector '${c.vectorName}' is dense: send an array of numbers`);
  }
  // A multivector name takes its rows, or one plain vector as a single row (checkVector).
  const query = checkVector(meta, c.vectorName, c.vector as readonly number[]);
  const params = meta.config.vectors[c.vectorName]!;
  const efConstruct = effectiveHnsw(meta, c.vectorName).ef_construct;
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
async function applyIdf(engine: PointEngine, meta: CollectionMeta, plans: PlannedSearch[]): Promise<void> {
  await Promise.all(
    plans
      .filter((p) => p.idf && p.spec.sparse !== null)
      .map(async (p) => {
        const sparse = p.spec.sparse!;
        const stats = await engine.fanOut(meta, { op: 'sparseStats', vector: p.spec.vector, terms: [...sparse.indices] });
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

/** Runs planned searches in one round trip per shard, each merged by score (ties by id) and paged. */
export async function runPlannedSearches(engine: PointEngine, meta: CollectionMeta, plans: PlannedSearch[]): Promise<ScoredPoint[][]> {
  if (plans.length === 0) return [];
  await applyIdf(engine, meta, plans);
  const perShard = await engine.fanOut(meta, { op: 'search', searches: plans.map((p) => p.spec) });
  return plans.map((p, i) => {
    const all = perShard.flatMap((shard) => shard[i] ?? []);
    const dir = p.higherIsBetter ? -1 : 1;
    all.sort((a, b) => (a.score !== b.score ? dir * (a.score - b.score) : comparePointIds(a.id, b.id)));
    const answer = all.slice(p.offset, p.offset + p.limit);
    sampleRecall(engine, meta, p, answer);
    return answer;
  });
}
