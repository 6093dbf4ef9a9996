// Maximal Marginal Relevance, as Qdrant's query `{nearest, mmr: {diversity, candidates_limit}}`
// defines it: the nearest `candidates_limit` points are re-ranked by picking, one at a time, the
// candidate with the best  lambda * relevance - (1 - lambda) * (its highest similarity to a point
// already picked),  where lambda = 1 - diversity; the first pick is the most relevant. Points keep
// their search score; only the order and the cut change. Similarity is the collection's own
// measure turned higher-is-better (Euclid and Manhattan negated), sparse vectors use the dot
// product. Work is O(picks x candidates x dim): each pick updates every candidate's highest
// similarity against the new pick only.

import { QuiverError } from '../../shared/errors.js';
import type { Distance, PointId, SparseVector } from '../../shared/types.js';
import { sparseDot } from '../index/distance.js';

export const DEFAULT_DIVERSITY = 0.5;
/** Qdrant's bound on `candidates_limit`. */
export const MAX_MMR_CANDIDATES = 16_384;

export interface MmrParams {
  lambda: number;
  /** How many nearest points to re-rank; null: as many as the page needs. */
  candidates: number | null;
}

/** Reads `mmr` of a nearest query: null when absent, or the checked parameters. */
export function mmrParams(raw: unknown): MmrParams | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw QuiverError.badInput('mmr: expected an object {diversity, candidates_limit}');
  const { diversity = null, candidates_limit = null, ...rest } = raw as { diversity?: unknown; candidates_limit?: unknown };
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw QuiverError.badInput(`mmr: unknown field '${unknown}'`);
  if (diversity !== null && (typeof diversity !== 'number' || !(diversity >= 0 && diversity <= 1))) {
    throw QuiverError.badInput(`mmr.diversity must be a number from 0 to 1, got ${JSON.stringify(diversity)}`);
  }
  if (candidates_limit !== null && (typeof candidates_limit !== 'number' || !Number.isInteger(candidates_limit) || candidates_limit < 0 || candidates_limit > MAX_MMR_CANDIDATES)) {
    throw QuiverError.badInput(`mmr.candidates_limit must be an integer from 0 to ${MAX_MMR_CANDIDATES}, got ${JSON.stringify(candidates_limit)}`);
  }
  return { lambda: 1 - (diversity ?? DEFAULT_DIVERSITY), candidates: candidates_limit };
}

export type Similarity = (a: readonly number[] | SparseVector, b: readonly number[] | SparseVector) => number;

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Higher-is-better similarity between two stored vectors of one named vector. */
export function similarityFor(distance: Distance | 'sparse'): Similarity {
  if (distance === 'sparse') return (a, b) => sparseDot(a as SparseVector, b as SparseVector);
  const dense = (f: (a: readonly number[], b: readonly number[]) => number): Similarity => (a, b) => f(a as readonly number[], b as readonly number[]);
  switch (distance) {
    case 'Cosine': // stored normalised
    case 'Dot':
      return dense(dot);
    case 'Euclid':
      return dense((a, b) => {
        let s = 0;
        for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
        return -Math.sqrt(s);
      });
    case 'Manhattan':
      return dense((a, b) => {
        let s = 0;
        for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
        return -s;
      });
  }
}

export interface MmrCandidate {
  id: PointId;
  /** Higher-is-better relevance to the query. */
  relevance: number;
  vector: readonly number[] | SparseVector;
}

/** Similarity evaluations (times dimensions) between yields to the event loop. */
const YIELD_EVERY = 20_000_000;
/** The most work one MMR re-rank may ask for (picks x candidates x dimensions). */
export const MAX_MMR_WORK = 2_000_000_000;

/**
 * The indices of `candidates` in MMR order, at most `picks` of them. It runs on the main thread,
 * so it yields to the event loop every YIELD_EVERY units of work: other requests go on.
 */
export async function mmrOrder(candidates: readonly MmrCandidate[], lambda: number, picks: number, similarity: Similarity, dim = 1): Promise<number[]> {
  const n = candidates.length;
  const order: number[] = [];
  if (n === 0 || picks <= 0) return order;
  const taken = new Uint8Array(n);
  // Highest similarity of each candidate to anything picked so far.
  const closest = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  let next = 0;
  for (let i = 1; i < n; i++) if (candidates[i]!.relevance > candidates[next]!.relevance) next = i;
  let work = 0;
  while (true) {
    order.push(next);
    taken[next] = 1;
    if (order.length >= Math.min(picks, n)) return order;
    const picked = candidates[next]!.vector;
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      if (taken[i] === 1) continue;
      const s = similarity(candidates[i]!.vector, picked);
      if (s > closest[i]!) closest[i] = s;
      const score = lambda * candidates[i]!.relevance - (1 - lambda) * closest[i]!;
      if (best === -1 || score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    next = best;
    work += n * dim;
    if (work >= YIELD_EVERY) {
      work = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}
