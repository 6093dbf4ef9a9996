// How one shard answers a vector search: which slots are candidates (the ids asked for, the
// payload indexes' answer to the filter, or a scan), whether they are scored exactly or through
// the HNSW graph (full_scan_threshold, as Qdrant plans it), and the scoring itself. Dense and
// sparse searches both end in the shard's top k (slot, score), best first.

import type { SearchSpec, SparseVec } from '../../shared/protocol.js';
import type { PointId } from '../../shared/types.js';
import type { SparseIndex } from '../index/sparse-index.js';
import type { IdTrackerRead } from './id-tracker.js';
import { TopK } from './top-k.js';
import { queryStats } from './quantized-space.js';
import type { VectorSpace } from './vector-space.js';

export interface Scored {
  slot: number;
  score: number;
}

/**
 * full_scan_threshold is in kilobytes of vectors, as in Qdrant: the candidate count whose
 * vectors fill that much is scored exactly (never fewer than k).
 */
export function fullScanPoints(kb: number, dim: number, k: number): number {
  return Math.max(Math.floor((kb * 1024) / (dim * 4)), k);
}

export interface PlanInput {
  /** Slots of the ids the search is restricted to (re-ranking), or null. */
  only: number[] | null;
  /** The search has a filter. */
  filtered: boolean;
  /** Exact search asked for. */
  exact: boolean;
  /** The vector has an HNSW graph. */
  hasGraph: boolean;
  /** Candidates from the payload indexes, or null when none narrows the filter. */
  fromIndex: () => Set<number> | null;
  /** Every slot passing the filter, by a scan of the payloads. */
  scan: () => number[];
  /** The cardinality at or below which candidates are scored exactly (fullScanPoints). */
  threshold: number;
}

export interface SearchPlan {
  /** The slots to score (null: every live slot), or, through HNSW, those the filter lets through. */
  candidates: Iterable<number> | null;
  /** Score the candidates exactly rather than walk the graph. */
  exact: boolean;
}

/**
 * Plans as Qdrant does: a filter that leaves few candidates is scored exactly (HNSW walking a
 * graph whose nodes mostly fail the filter loses recall); many candidates go through HNSW with
 * the filter applied during the walk. Payload indexes give the candidates (and so the
 * cardinality) cheaply; without one they come from a scan of the payloads. An exact search
 * (asked for, or with no graph: Manhattan, m = 0) scores the index's candidates only.
 */
export function planSearch(input: PlanInput): SearchPlan {
  let candidates: Iterable<number> | null = null;
  let cardinality = 0;
  if (input.only !== null) {
    candidates = input.only;
  } else if (input.filtered) {
    const fromIndex = input.fromIndex();
    if (fromIndex !== null) {
      candidates = fromIndex;
      cardinality = fromIndex.size;
    } else if (!input.exact && input.hasGraph) {
      const scanned = input.scan();
      candidates = scanned;
      cardinality = scanned.length;
    }
  }
  const exact = input.only !== null || input.exact || !input.hasGraph || (candidates !== null && cardinality <= input.threshold);
  return { candidates, exact };
}

/** What a search needs of the shard besides the vector itself. */
export interface SearchContext {
  ids: IdTrackerRead;
  /** The compiled filter, or null for none. */
  predicate: ((slot: number) => boolean) | null;
  /** Candidates from the payload indexes for the filter, or null. */
  indexCandidates: () => Set<number> | null;
  /** The vector's full_scan_threshold, in kilobytes. */
  fullScanKb: number;
  /** A binary vector's searches compare the float32 query with the codes (hnsw-params.ts asymmetricBinary). */
  asymmetric?: boolean;
}

/** The slots of those ids the shard holds. */
export function slotsOf(ids: IdTrackerRead, list: readonly PointId[]): number[] {
  const out: number[] = [];
  for (const id of list) {
    const slot = ids.slotOf(id);
    if (slot !== undefined) out.push(slot);
  }
  return out;
}

/**
 * The dense search of one vector: top k (slot, score), best first, before score_threshold.
 * Scores through the graph are hnswlib's distances turned into the metric's score; exact scores
 * come from VectorSpace.exactScores (the store, or the graph's own rows: see vector-space.ts).
 */
export function searchDense(space: VectorSpace, spec: SearchSpec, ctx: SearchContext): Scored[] {
  const { metric } = space;
  const pred = ctx.predicate;
  const excluded = new Set(slotsOf(ctx.ids, spec.exclude));
  const accept = (slot: number): boolean => space.has(slot) && !excluded.has(slot) && (pred === null || pred(slot));
  const graph = space.index;
  // A quantized vector's graph is over codes; `ignore` searches its float32 originals exactly.
  const quantized = spec.quantization?.ignore === true ? null : (space.quantized?.graph ?? null);
  const plan = planSearch({
    only: spec.only === null ? null : slotsOf(ctx.ids, spec.only),
    filtered: pred !== null,
    exact: spec.exact,
    hasGraph: graph !== null || quantized !== null,
    fromIndex: ctx.indexCandidates,
    scan: () => {
      const out: number[] = [];
      for (const slot of ctx.ids.sortedSlots()) if (accept(slot)) out.push(slot);
      return out;
    },
    threshold: fullScanPoints(ctx.fullScanKb, space.dim, spec.k),
  });
  const top = new TopK(spec.k, metric.higherIsBetter);
  const push = (slot: number, score: number): void => top.push(slot, score);
  if (!plan.exact && quantized !== null) {
    // The graph's top k x oversampling by the codes, rescored with the originals (Qdrant's
    // default) or scored from the codes' distances (`rescore: false`).
    const wide = Math.ceil(spec.k * (spec.quantization?.oversampling ?? 1));
    const asymmetric = ctx.asymmetric === true && quantized.params.kind === 'binary';
    const found = quantized.searchHits(spec.query, wide, Math.max(spec.ef, wide), pred !== null || excluded.size > 0 ? accept : undefined, asymmetric);
    const rescore = spec.quantization?.rescore ?? true;
    const stats = !rescore && asymmetric ? queryStats(spec.query) : null;
    for (let i = 0; i < found.slots.length; i++) {
      const slot = found.slots[i]!;
      top.push(slot, rescore ? space.score(slot, spec.query) : space.quantized!.approxScore(found.distances[i]!, stats));
    }
    space.scoreBehind(spec.query, accept, push);
  } else if (plan.exact || graph === null) {
    const candidates = plan.candidates ?? ctx.ids.sortedSlots();
    space.exactScores(spec.query, spec.k, candidates, sizeOf(candidates), ctx.ids.live, accept, push);
  } else {
    const needsFilter = pred !== null || excluded.size > 0;
    const found = graph.searchHits(spec.query, spec.k, Math.max(spec.ef, spec.k), needsFilter ? accept : undefined);
    for (let i = 0; i < found.slots.length; i++) top.push(found.slots[i]!, space.scoreOfDistance(found.distances[i]!));
    // Rows a load left to add to the graph in the background: scored exactly until it holds them.
    space.scoreBehind(spec.query, accept, push);
  }
  return top.drain();
}

function sizeOf(c: Iterable<number>): number {
  if (c instanceof Set) return c.size;
  if (Array.isArray(c) || ArrayBuffer.isView(c)) return (c as ArrayLike<number>).length;
  return [...c].length;
}

/** The sparse search of one vector: top k (slot, score) by dot product, score_threshold applied. */
export function searchSparse(index: SparseIndex, query: SparseVec, spec: SearchSpec, ctx: Omit<SearchContext, 'indexCandidates' | 'fullScanKb'>): Scored[] {
  const pred = ctx.predicate;
  const only = spec.only === null ? null : new Set(spec.only);
  const excluded = new Set(spec.exclude);
  const top = new TopK(spec.k, true);
  index.scores(query, (slot, score) => {
    const id = ctx.ids.idOf(slot)!;
    if (excluded.has(id) || (only !== null && !only.has(id)) || (pred !== null && !pred(slot))) return;
    if (spec.scoreThreshold !== null && score < spec.scoreThreshold) return;
    top.push(slot, score);
  });
  return top.drain();
}
