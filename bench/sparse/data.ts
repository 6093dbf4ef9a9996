// bench/sparse.ts's data and its exact arithmetic: seeded Zipf-skewed sparse vectors, their JSON,
// document frequencies and idf, the brute-force sparse top-k, and RRF fusion computed locally.

import { pushTop, rng } from '../common.js';
import { RRF_K, VOCAB, ZIPF } from './config.js';

// data: sparse vectors as sorted term ids with weights in whole millionths (the JSON sent and the
// float32 the server keeps are then the same numbers the brute force uses)

export interface SparseSet {
  /** Term ids of item i at offsets[i] .. offsets[i + 1], ascending. */
  terms: Uint32Array;
  micros: Int32Array;
  /** The weights as the server stores them (float32). */
  weights: Float32Array;
  offsets: Int32Array;
}

/** Draws distinct Zipf-skewed terms: rank by inverse CDF, term id by a seeded permutation of ranks. */
export class TermSampler {
  readonly #cdf: Float64Array;
  readonly #termOfRank: Uint32Array;
  readonly #seen: Int32Array;
  #stamp = 0;

  constructor(vocab: number, s: number, permSeed: number) {
    this.#cdf = new Float64Array(vocab);
    let acc = 0;
    for (let r = 0; r < vocab; r++) this.#cdf[r] = acc += 1 / Math.pow(r + 1, s);
    for (let r = 0; r < vocab; r++) this.#cdf[r] = this.#cdf[r]! / acc;
    this.#termOfRank = new Uint32Array(vocab);
    for (let r = 0; r < vocab; r++) this.#termOfRank[r] = r;
    const rand = rng(permSeed);
    for (let r = vocab - 1; r > 0; r--) {
      const j = Math.floor(rand() * (r + 1));
      const t = this.#termOfRank[r]!;
      this.#termOfRank[r] = this.#termOfRank[j]!;
      this.#termOfRank[j] = t;
    }
    this.#seen = new Int32Array(vocab);
  }

  #rank(u: number): number {
    let lo = 0;
    let hi = this.#cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** `count` distinct term ids, ascending. */
  draw(rand: () => number, count: number): number[] {
    const stamp = ++this.#stamp;
    const out: number[] = [];
    let tries = 0;
    while (out.length < count) {
      if (++tries > 10_000 * count) throw new Error(`could not draw ${count} distinct terms (skew ${ZIPF} too high for the vocabulary)`);
      const t = this.#termOfRank[this.#rank(rand())]!;
      if (this.#seen[t] === stamp) continue;
      this.#seen[t] = stamp;
      out.push(t);
    }
    return out.sort((a, b) => a - b);
  }
}

export function generate(sampler: TermSampler, count: number, seed: number, nnzOf: (rand: () => number) => number): SparseSet {
  const rand = rng(seed);
  const terms: number[] = [];
  const micros: number[] = [];
  const offsets = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const ts = sampler.draw(rand, nnzOf(rand));
    for (const t of ts) {
      terms.push(t);
      micros.push(1 + Math.floor(rand() * 1_000_000));
    }
    offsets[i + 1] = terms.length;
  }
  const m = Int32Array.from(micros);
  return { terms: Uint32Array.from(terms), micros: m, weights: Float32Array.from(m, (v) => v / 1e6), offsets };
}

export function sparseJson(set: SparseSet, i: number): string {
  const from = set.offsets[i]!;
  const to = set.offsets[i + 1]!;
  const idx: number[] = [];
  const val: number[] = [];
  for (let j = from; j < to; j++) {
    idx.push(set.terms[j]!);
    val.push(set.micros[j]! / 1e6);
  }
  return `{"indices":[${idx.join(',')}],"values":[${val.join(',')}]}`;
}

/** Documents holding each term. */
export function documentFrequencies(docs: SparseSet): Int32Array {
  const df = new Int32Array(VOCAB);
  for (let j = 0; j < docs.terms.length; j++) df[docs.terms[j]!]!++;
  return df;
}

/** Qdrant's idf, as src/main/service/nearest.ts computes it. */
export function idf(points: number, df: number): number {
  return Math.log((points - df + 0.5) / (df + 0.5) + 1);
}

export interface Ranked {
  ids: number[];
  scores: number[];
}

/**
 * Exact top `depth` by sparse dot product over every document, query weights `qw` (float32
 * values) per query term. Only documents sharing a term are ranked (the server scores no
 * others); ties by id. Products are summed in ascending term order, as the server does.
 */
export function sparseBruteForce(docs: SparseSet, qTerms: ArrayLike<number>, qw: ArrayLike<number>, depth: number, dense: Float64Array): Ranked {
  for (let j = 0; j < qTerms.length; j++) dense[qTerms[j]!] = qw[j]!;
  const ids: number[] = [];
  const scores: number[] = [];
  const n = docs.offsets.length - 1;
  for (let i = 0; i < n; i++) {
    let s = 0;
    let hit = false;
    for (let j = docs.offsets[i]!, end = docs.offsets[i + 1]!; j < end; j++) {
      const w = dense[docs.terms[j]!]!;
      if (w !== 0) {
        s += w * docs.weights[j]!;
        hit = true;
      }
    }
    // ids arrive ascending, so ties go by id
    if (hit) pushTop(ids, scores, depth, i, s);
  }
  for (let j = 0; j < qTerms.length; j++) dense[qTerms[j]!] = 0;
  return { ids, scores };
}

/** RRF as Quiver (and Qdrant) compute it: sum over lists of 1 / (position + k); ties by id. */
export function rrfLocal(lists: Ranked[], limit: number): number[] {
  const score = new Map<number, number>();
  for (const list of lists) list.ids.forEach((id, pos) => score.set(id, (score.get(id) ?? 0) + 1 / (pos + RRF_K)));
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([id]) => id);
}
