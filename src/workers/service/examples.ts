// Queries by example (docs/query.md): recommend, discover, context and relevance feedback. Their examples are vectors
// or point ids; ids are read from the collection, or from `lookup_from`'s collection and vector,
// and those points are left out of the results. recommend's average_vector strategy becomes one
// nearest search; the other kinds are scored per candidate in the shards (custom-search.ts).

import { QuiverError } from '../../shared/errors.js';
import { parsePointId, pointNotFound } from '../../shared/ids.js';
import type { CustomScore, SparseVec } from '../../shared/protocol.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { isMulti, vectorOf, type CollectionMeta, type PointId, type QueryVector, type SparseVector } from '../../shared/types.js';
import { embedDocument, isInferenceInput } from './bm25.js';
import { planNearest, type NearestRequest, type PlannedSearch } from './nearest.js';
import { checkMulti, checkSparse, checkVector, readsAsMulti } from './request-forms.js';
import { retrieveByIds } from './retrieve.js';

export type ExampleQuery =
  | { kind: 'recommend'; positive: unknown[]; negative: unknown[]; strategy: 'average_vector' | 'best_score' | 'sum_scores' }
  | { kind: 'discover'; target: unknown; pairs: [unknown, unknown][] }
  | { kind: 'context'; pairs: [unknown, unknown][] }
  | { kind: 'feedback'; target: unknown; items: { example: unknown; score: number }[]; a: number; b: number; c: number };

const STRATEGIES = ['average_vector', 'best_score', 'sum_scores'] as const;

function list(v: unknown, what: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw QuiverError.badInput(`${what}: expected a list of examples (vectors or point ids)`);
  return v;
}

/** A context: one pair or a list of pairs, each {positive, negative}. */
function pairs(v: unknown, what: string): [unknown, unknown][] {
  if (v === undefined || v === null) return [];
  const all = Array.isArray(v) ? v : [v];
  return all.map((p, i) => {
    if (p === null || typeof p !== 'object' || !('positive' in p) || !('negative' in p)) {
      throw QuiverError.badInput(`${what}[${i}]: a context pair needs a positive and a negative example`);
    }
    return [p.positive, p.negative];
  });
}

/** The query object of a recommend, discover or context query, checked; null for other kinds. */
export function exampleQuery(o: Record<string, unknown>): ExampleQuery | null {
  if ('recommend' in o) {
    const r = (o.recommend ?? {}) as Record<string, unknown>;
    const strategy = r.strategy ?? 'average_vector';
    if (!STRATEGIES.includes(strategy as (typeof STRATEGIES)[number])) {
      throw QuiverError.badInput(`Unknown recommend strategy '${String(strategy)}', expected one of ${STRATEGIES.join(', ')}`);
    }
    return { kind: 'recommend', positive: list(r.positive, 'recommend.positive'), negative: list(r.negative, 'recommend.negative'), strategy: strategy as (typeof STRATEGIES)[number] };
  }
  if ('discover' in o) {
    const d = (o.discover ?? {}) as Record<string, unknown>;
    if (d.target === undefined || d.target === null) throw QuiverError.badInput('discover.target is required: a vector or a point id');
    return { kind: 'discover', target: d.target, pairs: pairs(d.context, 'discover.context') };
  }
  if ('context' in o) return { kind: 'context', pairs: pairs(o.context, 'context') };
  if ('relevance_feedback' in o) return feedbackQuery(o.relevance_feedback);
  return null;
}

const num = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw QuiverError.badInput(`relevance_feedback.${what} must be a number`);
  return v;
};

/** relevance_feedback: a target, scored examples, and the naive strategy's a, b (>= 0) and c. */
function feedbackQuery(raw: unknown): ExampleQuery {
  const f = (raw ?? {}) as Record<string, unknown>;
  if (f.target === undefined || f.target === null) throw QuiverError.badInput('relevance_feedback.target is required: a vector or a point id');
  if (!Array.isArray(f.feedback)) throw QuiverError.badInput('relevance_feedback.feedback is required: a list of {example, score}');
  if (f.feedback.length === 0) throw QuiverError.unprocessable('Validation error in JSON body: [query.relevance_feedback.feedback: feedback elements must be non-empty]');
  const items = f.feedback.map((it: unknown, i: number) => {
    const o = (it ?? {}) as Record<string, unknown>;
    if (o.example === undefined || o.example === null) throw QuiverError.badInput(`relevance_feedback.feedback[${i}].example is required`);
    return { example: o.example, score: num(o.score, `feedback[${i}].score`) };
  });
  const naive = ((f.strategy ?? {}) as Record<string, unknown>).naive as Record<string, unknown> | undefined;
  if (naive === undefined || naive === null) throw QuiverError.badInput('relevance_feedback.strategy is required: {naive: {a, b, c}}');
  const b = num(naive.b, 'strategy.naive.b');
  if (b < 0) throw QuiverError.unprocessable(`Validation error in JSON body: [query.relevance_feedback.strategy.naive.b: value ${b} invalid, must be 0 or larger]`);
  return { kind: 'feedback', target: f.target, items, a: num(naive.a, 'strategy.naive.a'), b, c: num(naive.c, 'strategy.naive.c') };
}

/** Where ids are looked up: the collection searched, or lookup_from's collection and vector. */
export interface Lookup {
  meta: CollectionMeta;
  vector: string;
  /** True when it is the searched collection itself: its example points are left out of results. */
  same: boolean;
}

export function lookupOf(engine: PointEngine, meta: CollectionMeta, raw: unknown, using: string): Lookup {
  if (raw === undefined || raw === null) return { meta, vector: using, same: true };
  const l = raw as { collection?: unknown; vector?: unknown };
  if (typeof l.collection !== 'string') throw QuiverError.badInput('lookup_from.collection must be a collection name');
  const other = lookupCollection(engine, l.collection);
  const vector = typeof l.vector === 'string' ? l.vector : using;
  if (other.config.vectors[vector] === undefined && other.config.sparse_vectors[vector] === undefined) {
    throw QuiverError.badInput(`Wrong input: Not existing vector name error: ${vector} (in lookup_from collection ${l.collection})`);
  }
  return { meta: other, vector, same: other.id === meta.id };
}

/** lookup_from's collection; a missing one in Qdrant's words for it. */
function lookupCollection(engine: PointEngine, name: string): CollectionMeta {
  try {
    return engine.collection(name);
  } catch (e) {
    if (e instanceof QuiverError && e.code === 'NotFound') throw QuiverError.notFound(`Not found: Collection ${name} not found`);
    throw e;
  }
}

const isId = (v: unknown): v is number | string => typeof v === 'number' || typeof v === 'string';

/**
 * Every example as a float32 vector checked against the searched vector (normalised for Cosine),
 * ids read in one round per shard; the ids, to be left out of results.
 */
async function resolveExamples(
  engine: PointEngine,
  meta: CollectionMeta,
  using: string,
  lookup: Lookup,
  examples: unknown[],
  dropMissing: boolean,
): Promise<{ vectors: (Float32Array | SparseVec | null)[]; ids: PointId[] }> {
  const sparse = meta.config.sparse_vectors[using] !== undefined;
  if (!sparse && meta.config.vectors[using] === undefined) throw QuiverError.unknownVector(using);
  // A raw example checked as a query vector of `using` is (Cosine: normalised; sparse: sorted).
  const check = (v: unknown): Float32Array | SparseVec => {
    if (sparse) {
      if (isInferenceInput(v)) return checkSparse(meta, using, embedDocument(v, 'query'));
      if (v !== null && typeof v === 'object' && 'indices' in v && 'values' in v) {
        const { indices, values } = v as { indices: unknown; values: unknown };
        if (!Array.isArray(indices) || !Array.isArray(values) || ![...indices, ...values].every((x) => typeof x === 'number')) {
          throw QuiverError.badInput(`Vector '${using}': a sparse example needs arrays of numbers \`indices\` and \`values\``);
        }
        return checkSparse(meta, using, { indices, values } as SparseVector);
      }
      throw QuiverError.badInput(`Vector '${using}' is sparse: an example must be {indices, values}, a document or a point id`);
    }
    // A multivector's rows (or one plain vector as its single row): checkMulti says what is wrong.
    if (Array.isArray(v) && readsAsMulti(meta, using, v)) return checkMulti(meta, using, v);
    if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return checkVector(meta, using, v as number[]);
    throw QuiverError.badInput('An example must be a dense vector or a point id');
  };
  const ids = examples.filter(isId).map(parsePointId);
  const records = ids.length === 0 ? [] : await retrieveByIds(engine, lookup.meta, ids, { kind: 'none' }, { kind: 'names', names: [lookup.vector] });
  const byId = new Map(records.map((r) => [r.id, r]));
  const vectors = examples.map((e) => {
    if (!isId(e)) return check(e);
    const id = parsePointId(e);
    const rec = byId.get(id);
    if (rec === undefined) throw pointNotFound(id);
    const v = vectorOf(rec.vector, lookup.vector);
    // A point without the vector: recommend does without it, as Qdrant's; the others need it.
    if (v === undefined) {
      if (dropMissing) return null;
      throw QuiverError.notFound(`Not found: Vector with name ${JSON.stringify(lookup.vector)} for point ${id} not found`);
    }
    return check(v);
  });
  return { vectors, ids: lookup.same ? ids : [] };
}

/** Sparse average_vector: per index, the positives' mean, pushed from the negatives' mean. */
function averageSparse(positives: SparseVec[], negatives: SparseVec[]): SparseVector {
  const sum = new Map<number, number>();
  const add = (vs: SparseVec[], w: number): void => {
    for (const v of vs) v.indices.forEach((i, k) => sum.set(i, (sum.get(i) ?? 0) + (w * v.values[k]!) / vs.length));
  };
  add(positives, negatives.length === 0 ? 1 : 2);
  add(negatives, -1);
  const indices = [...sum.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => sum.get(i)!) };
}

/**
 * average_vector of multivectors, as Qdrant forms it: no mean, but one multivector of every
 * positive's rows and every negative's rows negated (MaxSim then sums over all of them).
 */
function concatMulti(positives: Float32Array[], negatives: Float32Array[], dim: number): number[][] {
  return [...positives.flatMap((v) => packedRows(v, dim)), ...negatives.flatMap((v) => packedRows(v, dim).map((r) => r.map((x) => -x)))];
}

/** Packed sub-vectors as rows. */
function packedRows(v: Float32Array, dim: number): number[][] {
  const out: number[][] = [];
  for (let at = 0; at < v.length; at += dim) out.push([...v.subarray(at, at + dim)]);
  return out;
}

/** Qdrant's average_vector: the positives' mean, pushed away from the negatives' mean when there are any. */
export function averageVector(positives: Float32Array[], negatives: Float32Array[], dim: number): number[] {
  const mean = (vs: Float32Array[]): Float64Array => {
    const out = new Float64Array(dim);
    for (const v of vs) for (let i = 0; i < dim; i++) out[i]! += v[i]! / vs.length;
    return out;
  };
  const pos = mean(positives);
  if (negatives.length === 0) return [...pos];
  const neg = mean(negatives);
  return [...pos].map((p, i) => p + (p - neg[i]!));
}

/** Every example of the query, in the order planExamples reads them back. */
function examplesOf(q: ExampleQuery): unknown[] {
  switch (q.kind) {
    case 'recommend':
      return [...q.positive, ...q.negative];
    case 'discover':
      return [q.target, ...q.pairs.flat()];
    case 'context':
      return q.pairs.flat();
    case 'feedback':
      return [q.target, ...q.items.map((i) => i.example)];
  }
}

/** The ids a query names as examples: Qdrant leaves them out of every result of the request. */
export function exampleIds(q: ExampleQuery): PointId[] {
  return examplesOf(q).filter(isId).map(parsePointId);
}

/** The shard searches of an example query: one nearest search, or one custom-scored search. */
export async function planExamples(
  engine: PointEngine,
  meta: CollectionMeta,
  q: ExampleQuery,
  lookup: Lookup,
  base: Omit<NearestRequest, 'vector' | 'exclude'>,
  excluded: PointId[],
): Promise<PlannedSearch> {
  const using = base.vectorName;
  const dim = meta.config.vectors[using]?.size ?? 0;
  if (q.kind === 'recommend' && q.positive.length + q.negative.length === 0) {
    throw QuiverError.unprocessable('Validation error in JSON body: [query.recommend: At least one positive or negative vector/id must be provided]');
  }
  if (q.kind === 'context' && q.pairs.length === 0) throw QuiverError.badInput('No context pairs given');
  const resolved = await resolveExamples(engine, meta, using, lookup, examplesOf(q), q.kind === 'recommend');
  const ids = [...excluded, ...resolved.ids];
  const sparse = meta.config.sparse_vectors[using] !== undefined;
  const multi = isMulti(meta, using);
  type V = Float32Array | SparseVec;
  const vectors = resolved.vectors as V[];
  let custom: CustomScore<V>;
  if (q.kind === 'recommend') {
    const present = (vs: (V | null)[]): V[] => vs.filter((v): v is V => v !== null);
    const positives = present(resolved.vectors.slice(0, q.positive.length));
    const negatives = present(resolved.vectors.slice(q.positive.length));
    if (q.strategy === 'average_vector') {
      if (positives.length === 0) throw QuiverError.badInput('Wrong input: Validation failed: Positive vectors should not be empty with `average` strategy');
      const avg = sparse
        ? averageSparse(positives as SparseVec[], negatives as SparseVec[])
        : multi
          ? concatMulti(positives as Float32Array[], negatives as Float32Array[], dim)
          : averageVector(positives as Float32Array[], negatives as Float32Array[], dim);
      return planNearest(meta, { ...base, vector: avg, exclude: ids });
    }
    // Every example dropped (none has the vector): nothing to score by.
    if (positives.length + negatives.length === 0) throw QuiverError.badInput(`Wrong input: none of the examples has vector ${JSON.stringify(lookup.vector)}`);
    custom = { kind: q.strategy, positives, negatives };
  } else if (q.kind === 'discover') {
    custom = { kind: 'discover', target: vectors[0]!, pairs: pairsOf(vectors.slice(1)) };
  } else if (q.kind === 'context') {
    custom = { kind: 'context', pairs: pairsOf(vectors) };
  } else {
    custom = { kind: 'feedback', target: vectors[0]!, a: q.a, pairs: feedbackPairs(vectors.slice(1), q.items, q.b, q.c) };
  }
  // The query vector is a placeholder the shards do not score with; the custom score decides.
  const first = vectors.find((v) => v !== null);
  const placeholder: QueryVector =
    first === undefined
      ? sparse
        ? { indices: [], values: [] }
        : new Array<number>(dim).fill(0)
      : first instanceof Float32Array
        ? multi
          ? packedRows(first, dim)
          : [...first]
        : { indices: [...first.indices], values: [...first.values] };
  const plan = planNearest(meta, { ...base, vector: placeholder, exclude: ids });
  plan.spec.custom = custom as CustomScore<Float32Array> | CustomScore<SparseVec>;
  plan.higherIsBetter = true;
  // Custom scores take the examples as they are: no idf weighting of the placeholder.
  plan.idf = false;
  return plan;
}

/** Pairs the naive strategy takes at most (Qdrant's). */
const MAX_FEEDBACK_PAIRS = 3;

/**
 * The naive strategy's pairs, as Qdrant forms them: the examples by feedback score, best first;
 * the best with the worst, the second with the second-worst, and so on, at most 3 pairs; each
 * weighted (score difference)^b x c (a tie too: 0^0 is 1).
 */
function feedbackPairs<V>(vectors: V[], items: { score: number }[], b: number, c: number): { better: V; worse: V; weight: number }[] {
  const order = items.map((it, i) => ({ score: it.score, v: vectors[i]! })).sort((x, y) => y.score - x.score);
  const out: { better: V; worse: V; weight: number }[] = [];
  for (let i = 0; i < Math.min(MAX_FEEDBACK_PAIRS, Math.floor(order.length / 2)); i++) {
    const front = order[i]!;
    const back = order[order.length - 1 - i]!;
    out.push({ better: front.v, worse: back.v, weight: (front.score - back.score) ** b * c });
  }
  return out;
}

function pairsOf<V>(vs: V[]): [V, V][] {
  const out: [V, V][] = [];
  for (let i = 0; i + 1 < vs.length; i += 2) out.push([vs[i]!, vs[i + 1]!]);
  return out;
}
