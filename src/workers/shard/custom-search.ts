// Searches scored by something other than the similarity to one query vector: recommend's
// best_score and sum_scores, discover, context and relevance feedback (docs/query.md has the formulas and why).
// Each candidate's vector is compared with every example; the candidates are every slot the
// filter lets through where that is cheap (few points or few filter candidates, or no graph), or
// else the union of graph searches from the examples a good match lies near, scored exactly.
// Similarity inside these scores is higher-is-better for every metric (see similarity()).

import type { CustomScore, SearchSpec, SparseVec } from '../../shared/protocol.js';
import { sparseDot, type RowScoreFn } from '../index/distance.js';
import type { SparseIndex } from '../index/sparse-index.js';
import { fullScanPoints, planSearch, slotsOf, type Scored, type SearchContext } from './search-planner.js';
import { TopK } from './top-k.js';
import type { VectorSpace } from './vector-space.js';

/** Qdrant's squashing of a similarity into (0, 1): 0.5 * (x / (1 + |x|) + 1). */
export function scaledSigmoid(x: number): number {
  return 0.5 * (fastSigmoid(x) + 1);
}

/** A candidate's score, given the similarity of its vector to an example. */
export function customScore<V>(c: CustomScore<V>, sim: (example: V) => number): number {
  switch (c.kind) {
    case 'best_score': {
      let pos = -Infinity;
      let neg = -Infinity;
      for (const v of c.positives) pos = Math.max(pos, sim(v));
      for (const v of c.negatives) neg = Math.max(neg, sim(v));
      return pos > neg ? scaledSigmoid(pos) : -scaledSigmoid(neg);
    }
    case 'sum_scores': {
      let sum = 0;
      for (const v of c.positives) sum += sim(v);
      for (const v of c.negatives) sum -= sim(v);
      return sum;
    }
    case 'discover': {
      // Each pair ranks +1 (nearer its positive), -1 (nearer its negative) or 0 (a tie).
      let rank = 0;
      for (const [p, n] of c.pairs) rank += Math.sign(sim(p) - sim(n));
      return rank + scaledSigmoid(sim(c.target));
    }
    case 'context': {
      // Each pair costs nothing on its positive's side, else its shortfall squashed into (-1, 0).
      let loss = 0;
      for (const [p, n] of c.pairs) loss += fastSigmoid(Math.min(sim(p) - sim(n) - F32_EPSILON, 0));
      return loss;
    }
    case 'feedback': {
      let score = c.a * sim(c.target);
      for (const p of c.pairs) score += p.weight * (sim(p.better) - sim(p.worse));
      return score;
    }
  }
}

/** float32's machine epsilon: the margin a context pair's positive must win by. */
const F32_EPSILON = 2 ** -23;

const fastSigmoid = (x: number): number => x / (1 + Math.abs(x));

/**
 * A score that is a weighted sum of similarities, sum of c_i sim(x, e_i) (sum_scores, relevance
 * feedback), is itself a similarity to one vector: for Dot and Cosine, x . (sum c_i e_i); for
 * Euclid, with C = sum c_i > 0, -C |x - sum c_i e_i / C|^2 plus a constant. One graph search from
 * that vector then finds its best matches; null where there is none (other scores, C <= 0).
 */
function linearStart(c: CustomScore, space: VectorSpace): Float32Array | null {
  const terms: [Float32Array, number][] =
    c.kind === 'sum_scores'
      ? [...c.positives.map((v): [Float32Array, number] => [v, 1]), ...c.negatives.map((v): [Float32Array, number] => [v, -1])]
      : c.kind === 'feedback'
        ? [[c.target, c.a], ...c.pairs.flatMap((p): [Float32Array, number][] => [[p.better, p.weight], [p.worse, -p.weight]])]
        : [];
  if (terms.length === 0 || space.metric.hnswSpace === null) return null;
  const q = new Float32Array(space.dim);
  let total = 0;
  for (const [v, w] of terms) {
    total += w;
    for (let i = 0; i < q.length; i++) q[i]! += w * v[i]!;
  }
  if (space.metric.hnswSpace === 'l2') {
    if (!(total > 0)) return null;
    for (let i = 0; i < q.length; i++) q[i]! /= total;
  }
  return q;
}

/** The examples a good match lies near: where graph searches start from. */
function attractors(c: CustomScore): Float32Array[] {
  switch (c.kind) {
    case 'best_score':
    case 'sum_scores':
      return c.positives;
    case 'discover':
      return [c.target, ...c.pairs.map((p) => p[0])];
    case 'context':
      return c.pairs.map((p) => p[0]);
    case 'feedback':
      return [c.target, ...c.pairs.map((p) => p.better)];
  }
}


export function searchCustom(space: VectorSpace, spec: SearchSpec, custom: CustomScore, ctx: SearchContext): Scored[] {
  const pred = ctx.predicate;
  const excluded = new Set(slotsOf(ctx.ids, spec.exclude));
  const accept = (slot: number): boolean => space.has(slot) && !excluded.has(slot) && (pred === null || pred(slot));
  const graph = spec.quantization?.ignore === true ? space.index : (space.index ?? space.quantized?.graph ?? null);
  const linear = linearStart(custom, space);
  const starts = linear === null ? attractors(custom) : [linear, ...attractors(custom)];
  // Scoring a candidate reads its row: cheap from a store, one native read-back each where the
  // graph holds the rows. There, a scan of every point is worth it only below what the graph
  // searches would visit anyway.
  const wide = Math.max(spec.ef, spec.k);
  const threshold = space.storeBacked ? fullScanPoints(ctx.fullScanKb, space.dim, spec.k) : wide * Math.max(1, starts.length);
  const plan = planSearch({
    only: spec.only === null ? null : slotsOf(ctx.ids, spec.only),
    filtered: pred !== null,
    exact: spec.exact || starts.length === 0,
    hasGraph: graph !== null,
    fromIndex: ctx.indexCandidates,
    scan: () => {
      const out: number[] = [];
      for (const slot of ctx.ids.sortedSlots()) if (accept(slot)) out.push(slot);
      return out;
    },
    threshold,
  });
  let candidates: Iterable<number>;
  if (plan.exact || graph === null || ctx.ids.live <= threshold) {
    candidates = plan.candidates ?? ctx.ids.sortedSlots();
  } else {
    // Each start's neighbourhood, as wide as the search's ef: the best matches of these scores
    // lie near a positive example (or the target), which is where a graph search finds them.
    const union = new Set<number>();
    for (const v of starts) for (const slot of graph.searchHits(v, wide, wide, pred !== null || excluded.size > 0 ? accept : undefined).slots) union.add(slot);
    // Rows a load left to add to the graph in the background: the graph cannot find them yet.
    space.forBehind(accept, (slot) => union.add(slot));
    candidates = union;
  }
  const sim = similarity(space);
  const top = new TopK(spec.k, true);
  for (const slot of candidates) {
    if (!accept(slot)) continue;
    const row = space.vector(slot);
    top.push(slot, customScore(custom, (example) => sim(example, row)));
  }
  return top.drain();
}

/**
 * Similarity as these scores take it, higher is better for every metric: Cosine and Dot as they
 * score, Euclid as the negated squared distance, Manhattan as the negated distance (Qdrant's raw
 * similarities: a custom score is not turned back into a distance).
 */
function similarity(space: VectorSpace): (example: Float32Array, row: Float32Array) => number {
  const score: RowScoreFn = space.metric.score;
  if (space.metric.higherIsBetter) return (e, row) => score(e, row, 0);
  if (space.metric.hnswSpace === 'l2') return (e, row) => -(score(e, row, 0) ** 2);
  return (e, row) => -score(e, row, 0);
}

/**
 * The custom-scored search of a sparse vector: every point holding the vector that the filter
 * lets through (or only those asked for), scored by the dot products of its sparse vector with
 * the examples (without idf: the examples are points' own weights). Exact: a sparse index has no
 * graph to walk.
 */
export function searchCustomSparse(index: SparseIndex, spec: SearchSpec, custom: CustomScore<SparseVec>, ctx: Omit<SearchContext, 'indexCandidates' | 'fullScanKb'>): Scored[] {
  const pred = ctx.predicate;
  const excluded = new Set(slotsOf(ctx.ids, spec.exclude));
  const slots = spec.only === null ? ctx.ids.sortedSlots() : slotsOf(ctx.ids, spec.only);
  const top = new TopK(spec.k, true);
  for (const slot of slots) {
    const row = index.get(slot);
    if (row === undefined || excluded.has(slot) || (pred !== null && !pred(slot))) continue;
    top.push(slot, customScore(custom, (example) => sparseDot(example, row)));
  }
  return top.drain();
}
