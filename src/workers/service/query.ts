// The Query API (docs/query.md): one request tree of prefetches and a query at each node. A node
// without prefetch searches the collection (nearest vector or point, or by example: examples.ts),
// orders by a payload key, samples at random, or lists by id; a node with prefetches re-ranks,
// fuses (rrf, dbsf), rescores by formula (formula.ts), orders or samples the union of what they
// found. The root's filter applies to every prefetch, as Qdrant.

import { QuiverError } from '../../shared/errors.js';
import type { Filter } from '../../shared/filter.js';
import { comparePointIds, parsePointId, pointNotFound } from '../../shared/ids.js';
import type { QueryRequest } from '../../shared/schemas/search.js';
import { DEFAULT_VECTOR, isMulti, vectorOf, type CollectionMeta, type PointId, type PointRecord, type QueryVector, type ScoredPoint, type SparseVector } from '../../shared/types.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { parseFilter } from './filter-parse.js';
import { checkResultWindow } from './limits.js';
import { MAX_MMR_CANDIDATES, MAX_MMR_WORK, mmrOrder, mmrParams, similarityFor, type MmrParams } from './mmr.js';
import { planNearest, runPlannedSearches, type NearestRequest } from './nearest.js';
import { mergeOrdered, orderBySpec } from './order-by.js';
import { payloadSelector, refuseUnsupported, vectorSelector, withVectorOf } from './request-forms.js';
import { retrieveByIds } from './retrieve.js';
import { parseFormula, rescoreByFormula, type Formula } from './formula.js';
import { embedDocument, isInferenceInput } from './bm25.js';
import { exampleIds, exampleQuery, lookupOf, planExamples, type ExampleQuery, type Lookup } from './examples.js';
import { StrictMode } from './strict-mode.js';
import { timedRead } from './issues.js';

type Node = Omit<QueryRequest, 'with_payload' | 'with_vector' | 'with_vectors' | 'offset'>;

/** What the root asks for besides ranking: paging and what each point carries. */
interface Output {
  offset: number;
  withPayload: QueryRequest['with_payload'];
  withVector: QueryRequest['with_vector'];
}

const DEFAULT_RRF_K = 2;

type Kind =
  | { kind: 'nearest'; q: unknown; mmr: MmrParams | null }
  | { kind: 'examples'; q: ExampleQuery }
  | { kind: 'formula'; f: Formula }
  | { kind: 'fusion'; method: 'rrf' | 'dbsf'; k: number; weights: number[] | null }
  | { kind: 'order_by'; orderBy: OrderByInput }
  | { kind: 'sample' }
  | { kind: 'none' };

type OrderByInput = Parameters<typeof orderBySpec>[1];

/** The query's order_by has no schema of its own (the query union is loose): its shape is checked here, as scroll's schema would. */
function orderByShape(v: unknown): OrderByInput {
  if (typeof v === 'string') return v;
  const bad = (msg: string): never => {
    throw QuiverError.badInput(`query.order_by: ${msg}`);
  };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return bad('expected a key or {key, direction, start_from}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['key', 'direction', 'start_from'].includes(k)) bad(`unknown field '${k}'`);
  if (typeof o.key !== 'string') return bad('key must be a string');
  if (o.direction !== undefined && o.direction !== null && o.direction !== 'asc' && o.direction !== 'desc') bad("direction must be 'asc' or 'desc'");
  const s = o.start_from;
  if (s !== undefined && s !== null && typeof s !== 'string' && !(typeof s === 'number' && Number.isFinite(s))) bad('start_from must be a number or an RFC 3339 datetime');
  return {
    key: o.key,
    ...(o.direction === 'asc' || o.direction === 'desc' ? { direction: o.direction } : {}),
    ...(typeof s === 'string' || typeof s === 'number' ? { start_from: s } : {}),
  };
}

function classify(q: QueryRequest['query']): Kind {
  if (q === undefined || q === null) return { kind: 'none' };
  if (Array.isArray(q) || typeof q === 'number' || typeof q === 'string') return { kind: 'nearest', q, mmr: null };
  const o = q as Record<string, unknown>;
  if ('nearest' in o) return { kind: 'nearest', q: o.nearest, mmr: mmrParams(o.mmr) };
  if ('fusion' in o) {
    if (o.fusion !== 'rrf' && o.fusion !== 'dbsf') throw QuiverError.badInput(`Unknown fusion '${String(o.fusion)}', expected rrf or dbsf`);
    return { kind: 'fusion', method: o.fusion, k: DEFAULT_RRF_K, weights: null };
  }
  if ('rrf' in o) {
    const p = (o.rrf ?? {}) as { k?: unknown; weights?: unknown };
    const k = p.k ?? DEFAULT_RRF_K;
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) throw QuiverError.badInput('rrf.k must be a positive integer');
    const w = p.weights ?? null;
    if (w !== null && (!Array.isArray(w) || !w.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
      throw QuiverError.badInput('rrf.weights must be an array of numbers');
    }
    return { kind: 'fusion', method: 'rrf', k, weights: w as number[] | null };
  }
  if ('order_by' in o) return { kind: 'order_by', orderBy: orderByShape(o.order_by) };
  if ('sample' in o || 'random' in o) {
    if ('sample' in o && o.sample !== 'random') throw QuiverError.badInput(`Unknown sample '${String(o.sample)}', expected random`);
    return { kind: 'sample' };
  }
  if (('indices' in o && 'values' in o) || isInferenceInput(o)) return { kind: 'nearest', q: o, mmr: null };
  const examples = exampleQuery(o);
  if (examples !== null) return { kind: 'examples', q: examples };
  if ('formula' in o) return { kind: 'formula', f: parseFormula(o) };
  const kind = Object.keys(o)[0] ?? '(empty)';
  throw QuiverError.badInput(`Unknown query kind '${kind}'`);
}

/**
 * A vector as given, or a point's stored vector, read from lookup_from's collection and vector
 * where given (a point of the searched collection itself is then left out of results).
 */
async function resolveVector(engine: PointEngine, q: unknown, lookup: Lookup): Promise<{ vector: QueryVector; exclude: PointId[] }> {
  // Dense, or a multivector's rows: checked against the vector searched (checkVector).
  if (Array.isArray(q)) return { vector: q as number[], exclude: [] };
  if (typeof q === 'number' || typeof q === 'string') {
    const id = parsePointId(q);
    const [rec] = await retrieveByIds(engine, lookup.meta, [id], { kind: 'none' }, { kind: 'names', names: [lookup.vector] });
    if (rec === undefined) throw pointNotFound(id);
    const vec = vectorOf(rec.vector, lookup.vector);
    if (vec === undefined) throw QuiverError.badInput(`Point ${id} has no vector '${lookup.vector}'`);
    return { vector: vec, exclude: lookup.same ? [id] : [] };
  }
  // A BM25 document: its query form, one per distinct word.
  if (isInferenceInput(q)) return { vector: embedDocument(q, 'query'), exclude: [] };
  if (q !== null && typeof q === 'object' && 'indices' in q && 'values' in q) {
    const { indices, values } = q as { indices: unknown; values: unknown };
    if (!Array.isArray(indices) || !Array.isArray(values)) throw QuiverError.badInput('query: a sparse vector needs arrays `indices` and `values`');
    return { vector: { indices: indices as number[], values: values as number[] }, exclude: [] };
  }
  throw QuiverError.badInput('query: expected a vector, a point id or a query object');
}

function both(a: Filter | null, b: Filter | null): Filter | null {
  if (a === null) return b;
  if (b === null) return a;
  return { must: [a, b] };
}

function prefetchList(p: unknown): Node[] {
  if (p === undefined || p === null) return [];
  const list = Array.isArray(p) ? p : [p];
  return list.map((x, i) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) throw QuiverError.badInput(`prefetch[${i}]: expected an object`);
    return x as Node;
  });
}

/** Qdrant's RRF: each list contributes 1 / ((position + 1) / weight + k - 1) per point. */
export function rrf(lists: ScoredPoint[][], k: number, weights: number[] | null): ScoredPoint[] {
  if (weights !== null && weights.length !== lists.length) {
    throw QuiverError.badInput(`Number of weights in RRF should match number of pre-fetches: got ${weights.length}, expected ${lists.length}`);
  }
  const byId = new Map<PointId, ScoredPoint>();
  lists.forEach((list, li) => {
    const w = weights?.[li] ?? 1;
    list.forEach((p, pos) => {
      const s = w <= 0 ? 0 : 1 / ((pos + 1) / w + k - 1);
      const seen = byId.get(p.id);
      if (seen) seen.score += s;
      else byId.set(p.id, { ...p, score: s });
    });
  });
  return sortFused([...byId.values()]);
}

/** Qdrant's DBSF: each list normalised by mean +- 3 sample standard deviations, then summed. */
export function dbsf(lists: ScoredPoint[][]): ScoredPoint[] {
  const byId = new Map<PointId, ScoredPoint>();
  for (const list of lists) {
    let normed: number[];
    if (list.length < 2) {
      normed = list.map(() => 0.5);
    } else {
      const mean = list.reduce((a, p) => a + p.score, 0) / list.length;
      const variance = list.reduce((a, p) => a + (p.score - mean) ** 2, 0) / (list.length - 1);
      const sd = Math.sqrt(variance);
      const lo = mean - 3 * sd;
      const hi = mean + 3 * sd;
      normed = list.map((p) => (hi === lo ? 0.5 : (p.score - lo) / (hi - lo)));
    }
    list.forEach((p, i) => {
      const seen = byId.get(p.id);
      if (seen) seen.score += normed[i]!;
      else byId.set(p.id, { ...p, score: normed[i]! });
    });
  }
  return sortFused([...byId.values()]);
}

function sortFused(points: ScoredPoint[]): ScoredPoint[] {
  return points.sort((a, b) => b.score - a.score || comparePointIds(a.id, b.id));
}

function unionIds(lists: ScoredPoint[][]): PointId[] {
  return [...new Set(lists.flat().map((p) => p.id))];
}

function asScored(rec: PointRecord & { order_value?: number }, score: number): ScoredPoint {
  return { ...rec, version: 0, score };
}

/**
 * One node of the tree. `excluded`: the ids the whole request names (referencedIds), left out of
 * every search as a search's own exclusions are (never as a filter: a must_not would make every
 * search a filtered one, planned by a scan), and out of listings by the filter.
 */
async function execute(engine: PointEngine, meta: CollectionMeta, node: Node, inherited: Filter | null, out: Output | null, excluded: PointId[]): Promise<ScoredPoint[]> {
  refuseUnsupported(node, ['shard_key']);
  const filter = both(inherited, parseFilter(node.filter));
  const listed = excluded.length === 0 ? filter : both(filter, { must_not: [{ has_id: excluded }] });
  const limit = node.limit ?? 10;
  const offset = out?.offset ?? 0;
  checkResultWindow(limit, offset);
  // Each node, the root and every prefetch, is held to strict mode on its own (strict-mode.ts).
  const strict = StrictMode.of(meta);
  strict?.limit(limit);
  strict?.params(node.params);
  strict?.filter(parseFilter(node.filter), 'retrieve');
  const using = node.using ?? DEFAULT_VECTOR;
  const kind = classify(node.query);
  if (kind.kind === 'formula') strict?.formula(kind.f);
  const lookup = (): Lookup => lookupOf(engine, meta, node.lookup_from, using);
  const prefetches = prefetchList(node.prefetch);
  const withPayload = payloadSelector(out?.withPayload, false);
  const withVector = vectorSelector(out?.withVector, meta);
  const threshold = node.score_threshold ?? null;

  const lists = await Promise.all(prefetches.map((p) => execute(engine, meta, p, filter, null, excluded)));
  const candidates = prefetches.length > 0 ? unionIds(lists) : null;
  const page = (points: ScoredPoint[]): ScoredPoint[] => points.slice(offset, offset + limit);

  switch (kind.kind) {
    case 'nearest': {
      const resolved = await resolveVector(engine, kind.q, lookup());
      const { vector } = resolved;
      const exclude = [...excluded, ...resolved.exclude];
      if (kind.mmr !== null) {
        const nearest = { filter, params: node.params, scoreThreshold: threshold, vectorName: using, vector, exclude, only: candidates };
        return attach(engine, meta, page(await diversify(engine, meta, nearest, kind.mmr, limit + offset)), out);
      }
      const p = planNearest(meta, {
        filter,
        offset,
        params: node.params,
        scoreThreshold: threshold,
        withPayload: out?.withPayload,
        withVector: out?.withVector,
        vectorName: using,
        vector,
        limit,
        exclude,
        only: candidates,
      });
      return (await runPlannedSearches(engine, meta, [p]))[0] ?? [];
    }
    case 'examples': {
      const base = { filter, offset, params: node.params, scoreThreshold: threshold, withPayload: out?.withPayload, withVector: out?.withVector, vectorName: using, limit, only: candidates };
      const plan = await planExamples(engine, meta, kind.q, lookup(), base, excluded);
      return (await runPlannedSearches(engine, meta, [plan]))[0] ?? [];
    }
    case 'formula': {
      if (prefetches.length === 0) throw QuiverError.badInput('Bad request: cannot apply Formula without prefetches');
      return attach(engine, meta, page(await rescoreByFormula(engine, meta, kind.f, lists, threshold)), out);
    }
    case 'fusion': {
      if (prefetches.length === 0) throw QuiverError.badInput('Fusion needs prefetch: there is nothing to fuse');
      const fused = kind.method === 'rrf' ? rrf(lists, kind.k, kind.weights) : dbsf(lists);
      const kept = threshold === null ? fused : fused.filter((p) => p.score >= threshold);
      return attach(engine, meta, page(kept), out);
    }
    case 'order_by': {
      const orderBy = orderBySpec(meta, kind.orderBy);
      const scoped = candidates === null ? listed : both(listed, { must: [{ has_id: candidates }] });
      const parts = await engine.fanOut(meta, { op: 'scrollOrdered', orderBy, limit: limit + offset, filter: scoped, withPayload, withVector });
      // Qdrant scores every entry 1 and orders by order_value, which each point carries.
      return page(mergeOrdered(parts, orderBy.direction, limit + offset).map((r) => asScored(r, 1)));
    }
    case 'sample': {
      const scoped = candidates === null ? listed : both(listed, { must: [{ has_id: candidates }] });
      const parts = await engine.fanOut(meta, { op: 'sample', limit: limit + offset, filter: scoped, withPayload, withVector });
      const all = parts.flat();
      for (let i = all.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [all[i], all[j]] = [all[j]!, all[i]!];
      }
      return page(all.map((r) => asScored(r, 0)));
    }
    case 'none': {
      if (prefetches.length > 0) {
        if (prefetches.length > 1) throw QuiverError.badInput('With several prefetches, a query (for example a fusion) must say how to combine them');
        return attach(engine, meta, page(lists[0]!), out);
      }
      const parts = await engine.fanOut(meta, { op: 'scroll', offset: null, limit: limit + offset, filter: listed, withPayload, withVector });
      const merged = parts.flat().sort((a, b) => comparePointIds(a.id, b.id));
      return page(merged.map((r) => asScored(r, 0)));
    }
  }
}

/**
 * The nearest `mmr.candidates` points (as many as the page needs by default) with their vectors,
 * re-ranked by MMR; `picks` of them, without vectors or payloads.
 */
async function diversify(
  engine: PointEngine,
  meta: CollectionMeta,
  nearest: Omit<NearestRequest, 'limit' | 'offset' | 'withPayload' | 'withVector'>,
  mmr: MmrParams,
  picks: number,
): Promise<ScoredPoint[]> {
  const using = nearest.vectorName;
  if (isMulti(meta, using)) throw QuiverError.badInput(`mmr is not supported on multivector '${using}' by Quiver: query it with nearest, or rerank a prefetch`);
  // Qdrant caps candidates_limit at 16,384 and defaults it to the page size; a large page is
  // held to the same cap, and the whole re-rank to a bounded amount of work.
  const pool = Math.min(mmr.candidates ?? picks, MAX_MMR_CANDIDATES);
  const dim = meta.config.vectors[using]?.size ?? 1;
  const work = Math.min(picks, pool) * pool * dim;
  if (work > MAX_MMR_WORK) {
    throw QuiverError.badInput(
      `mmr: ${Math.min(picks, pool)} picks among ${pool} candidates of ${dim} dimensions is more work than one query may ask for; lower limit or candidates_limit`,
    );
  }
  const p = planNearest(meta, { ...nearest, limit: pool, offset: 0, withPayload: false, withVector: using === DEFAULT_VECTOR ? true : [using] });
  const found = (await runPlannedSearches(engine, meta, [p]))[0] ?? [];
  const distance = meta.config.vectors[using]?.distance ?? 'sparse';
  const lowerIsBetter = distance === 'Euclid' || distance === 'Manhattan';
  const candidates = found.flatMap((pt) => {
    const v = vectorOf(pt.vector, using);
    // Not a multivector's rows: mmr on one is refused above.
    return v === undefined ? [] : [{ id: pt.id, relevance: lowerIsBetter ? -pt.score : pt.score, vector: v as number[] | SparseVector }];
  });
  const byId = new Map(found.map(({ payload: _p, vector: _v, ...bare }) => [bare.id, bare]));
  return (await mmrOrder(candidates, mmr.lambda, picks, similarityFor(distance), dim)).map((i) => byId.get(candidates[i]!.id)!);
}

/** Payloads and vectors for points that came out of fusion or a prefetch, as the root asks. */
async function attach(engine: PointEngine, meta: CollectionMeta, points: ScoredPoint[], out: Output | null): Promise<ScoredPoint[]> {
  if (out === null) return points;
  const withPayload = payloadSelector(out.withPayload, false);
  const withVector = vectorSelector(out.withVector, meta);
  const bare = points.map(({ payload: _p, vector: _v, ...rest }) => rest);
  if (withPayload.kind === 'none' && withVector.kind === 'none') return bare;
  const records = await retrieveByIds(engine, meta, points.map((p) => p.id), withPayload, withVector);
  const byId = new Map(records.map((r) => [r.id, r]));
  return bare.map((p) => ({ ...byId.get(p.id), ...p }));
}

/** The point ids a query names as its vector (by id) or examples. */
function idsOfQuery(q: unknown): PointId[] {
  if (typeof q === 'number' || typeof q === 'string') return [parsePointId(q)];
  if (q === null || typeof q !== 'object' || Array.isArray(q)) return [];
  const o = q as Record<string, unknown>;
  if ('nearest' in o) return typeof o.nearest === 'number' || typeof o.nearest === 'string' ? [parsePointId(o.nearest)] : [];
  const examples = exampleQuery(o);
  return examples === null ? [] : exampleIds(examples);
}

/**
 * Every point id the request names, at any depth, as a vector or an example of the collection
 * itself (not of lookup_from's other collection): Qdrant leaves them all out of every result of
 * the request, prefetches included (it adds them to the root's filter; see execute).
 */
function referencedIds(engine: PointEngine, meta: CollectionMeta, node: Node): PointId[] {
  const from = (node.lookup_from as { collection?: unknown } | null | undefined)?.collection;
  const own = typeof from !== 'string' || sameCollection(engine, meta, from) ? idsOfQuery(node.query) : [];
  return [...own, ...prefetchList(node.prefetch).flatMap((p) => referencedIds(engine, meta, p))];
}

function sameCollection(engine: PointEngine, meta: CollectionMeta, name: string): boolean {
  try {
    return engine.collection(name).id === meta.id;
  } catch {
    return false;
  }
}

export async function doQueryBatch(engine: PointEngine, name: string, reqs: QueryRequest[]): Promise<{ points: ScoredPoint[] }[]> {
  const meta = engine.collection(name);
  StrictMode.of(meta)?.searchBatch(reqs.length);
  return Promise.all(
    reqs.map(async (r) => {
      // A query takes its read tokens once, for its root's filter (its prefetches are part of it).
      const rootFilter = parseFilter(r.filter);
      StrictMode.of(meta)?.readTokens(StrictMode.readCost(rootFilter));
      const referenced = [...new Set(referencedIds(engine, meta, r))];
      const run = (): Promise<ScoredPoint[]> => execute(engine, meta, r, null, { offset: r.offset ?? 0, withPayload: r.with_payload, withVector: withVectorOf(r) }, referenced);
      // Only the root's filter is noted for issues: a prefetch's is checked where it is parsed.
      return { points: await timedRead(meta, [rootFilter], run) };
    }),
  );
}

export async function doQuery(engine: PointEngine, name: string, req: QueryRequest): Promise<{ points: ScoredPoint[] }> {
  const [res] = await doQueryBatch(engine, name, [req]);
  return res ?? { points: [] };
}
