// Uniform seeded data for the benches that do not use the clustered dataset (bench/lib/dataset.ts):
// the vectors, exact top-k by brute force over them, recall against it, and latency percentiles.

// data: seeded random vectors. Components are whole millionths in [-1, 1], kept as Int32Array, so
// the JSON sent to Quiver, the number[] given to hnswlib and the ground truth all see the same
// values (v / 1e6 prints as its short decimal form).

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomMicros(n: number, dim: number, seed: number): Int32Array {
  const r = rng(seed);
  const out = new Int32Array(n * dim);
  for (let i = 0; i < out.length; i++) out[i] = Math.round((r() * 2 - 1) * 1e6);
  return out;
}

export function row(micros: Int32Array, i: number, dim: number): number[] {
  const out = new Array<number>(dim);
  const base = i * dim;
  for (let d = 0; d < dim; d++) out[d] = micros[base + d]! / 1e6;
  return out;
}

export function rowJson(micros: Int32Array, i: number, dim: number): string {
  return '[' + row(micros, i, dim).join(',') + ']';
}

export function normalised(micros: Int32Array, n: number, dim: number): Float32Array {
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const base = i * dim;
    let s = 0;
    for (let d = 0; d < dim; d++) {
      const v = micros[base + d]! / 1e6;
      s += v * v;
    }
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let d = 0; d < dim; d++) out[base + d] = (micros[base + d]! / 1e6) * inv;
  }
  return out;
}

/**
 * Keeps `ids`/`scores` the best `k` seen so far, best first, by insertion. Ids offered in
 * ascending order keep ties by id (an equal score stays behind the one already there).
 */
export function pushTop(ids: number[], scores: number[], k: number, id: number, score: number): void {
  if (k <= 0 || (ids.length >= k && score <= scores[ids.length - 1]!)) return;
  let x = ids.length < k ? ids.length : k - 1;
  if (ids.length < k) {
    ids.push(id);
    scores.push(score);
  }
  while (x > 0 && scores[x - 1]! < score) {
    ids[x] = ids[x - 1]!;
    scores[x] = scores[x - 1]!;
    x--;
  }
  ids[x] = id;
  scores[x] = score;
}

/**
 * Exact top-k ids by cosine similarity (dot product of normalised vectors), per query, over
 * `among`: the first `among` points when a number, else exactly the ids listed (ascending).
 */
export function bruteForce(data: Float32Array, queries: Float32Array, nq: number, dim: number, k: number, among: number | ArrayLike<number>): number[][] {
  const n = typeof among === 'number' ? among : among.length;
  const idAt = typeof among === 'number' ? (j: number): number => j : (j: number): number => among[j]!;
  const truth: number[][] = [];
  for (let q = 0; q < nq; q++) {
    const qb = q * dim;
    const ids: number[] = [];
    const scores: number[] = [];
    for (let j = 0; j < n; j++) {
      const i = idAt(j);
      const base = i * dim;
      let s = 0;
      for (let d = 0; d < dim; d++) s += data[base + d]! * queries[qb + d]!;
      pushTop(ids, scores, k, i, s);
    }
    truth.push(ids);
  }
  return truth;
}

export function recallOf(found: readonly number[][], truth: readonly number[][]): number {
  let hit = 0;
  let total = 0;
  for (let q = 0; q < truth.length; q++) {
    const want = new Set(truth[q]);
    for (const id of found[q] ?? []) if (want.has(id)) hit++;
    total += truth[q]!.length;
  }
  return total === 0 ? 0 : hit / total;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function latencyStats(ms: number[]): { p50: number; p99: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length) };
}
