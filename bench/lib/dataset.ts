// The dataset of issues 13 and 14: points around `clusters` Gaussian centroids (centroids uniform in
// [-1, 1]^dim, each point = a random centroid + N(0, sigma) per dimension), from a seeded PRNG, and
// held-out queries drawn the same way from the same centroids, with exact top-k by Euclid distance.
//
// Invariants: the same (n, dim, seed) always gives the same values, on any machine (mulberry32 and
// Box-Muller in double precision, then rounded). Components are whole multiples of 1e-4, kept as
// Int32Array units, so the JSON sent to Quiver, the number[] given to hnswlib, the protobuf floats
// of gRPC and the ground truth all see the same float32 values (u / 1e4 prints as its short decimal).

import { rng } from '../common.js';

export const UNIT = 1e4;

export interface DatasetSpec {
  n: number;
  queries: number;
  dim: number;
  clusters: number;
  sigma: number;
  seed: number;
}

export interface Dataset {
  spec: DatasetSpec;
  /** n x dim components, in units of 1 / UNIT. */
  points: Int32Array;
  /** queries x dim components, in units of 1 / UNIT. */
  queries: Int32Array;
}

/** A standard normal sample from two uniforms (Box-Muller); `r` never returns 1, so 1 - r() > 0. */
function gauss(r: () => number): number {
  const u = 1 - r();
  const v = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function draw(r: () => number, centroids: Float64Array, count: number, spec: DatasetSpec): Int32Array {
  const { dim, clusters, sigma } = spec;
  const out = new Int32Array(count * dim);
  for (let i = 0; i < count; i++) {
    const c = Math.min(clusters - 1, Math.floor(r() * clusters)) * dim;
    const base = i * dim;
    for (let d = 0; d < dim; d++) out[base + d] = Math.round((centroids[c + d]! + sigma * gauss(r)) * UNIT);
  }
  return out;
}

export function makeDataset(spec: DatasetSpec): Dataset {
  const rc = rng(spec.seed);
  const centroids = new Float64Array(spec.clusters * spec.dim);
  for (let i = 0; i < centroids.length; i++) centroids[i] = rc() * 2 - 1;
  // separate streams, so the points do not depend on the query count and the reverse
  const points = draw(rng(spec.seed * 7919 + 1), centroids, spec.n, spec);
  const queries = draw(rng(spec.seed * 7919 + 2), centroids, spec.queries, spec);
  return { spec, points, queries };
}

/** Row `i` as the numbers a client sends (and hnswlib takes). */
export function rowOf(units: Int32Array, i: number, dim: number): number[] {
  const out = new Array<number>(dim);
  const base = i * dim;
  for (let d = 0; d < dim; d++) out[d] = units[base + d]! / UNIT;
  return out;
}

export function rowJson(units: Int32Array, i: number, dim: number): string {
  return '[' + rowOf(units, i, dim).join(',') + ']';
}

/** The float32 values the server stores. */
export function toFloat32(units: Int32Array): Float32Array {
  const out = new Float32Array(units.length);
  for (let i = 0; i < units.length; i++) out[i] = units[i]! / UNIT;
  return out;
}

/**
 * Exact top-k ids by squared Euclid distance for queries [q0, q1), nearest first; ties by the
 * lower id. `data` and `queries` are float32 rows of `dim`.
 */
export function exactTopK(data: Float32Array, n: number, queries: Float32Array, q0: number, q1: number, dim: number, k: number): number[][] {
  const out: number[][] = [];
  const ids = new Int32Array(k);
  const dist = new Float64Array(k);
  for (let q = q0; q < q1; q++) {
    let size = 0;
    const qb = q * dim;
    for (let i = 0; i < n; i++) {
      const base = i * dim;
      let s = 0;
      for (let d = 0; d < dim; d++) {
        const x = data[base + d]! - queries[qb + d]!;
        s += x * x;
      }
      if (size === k && s >= dist[k - 1]!) continue;
      // insertion into the sorted window (k is small)
      let x = size < k ? size++ : k - 1;
      while (x > 0 && dist[x - 1]! > s) {
        dist[x] = dist[x - 1]!;
        ids[x] = ids[x - 1]!;
        x--;
      }
      dist[x] = s;
      ids[x] = i;
    }
    out.push(Array.from(ids.subarray(0, size)));
  }
  return out;
}

/** recall@k: the share of the true top-k ids found, over all queries. */
export function recallAtK(found: readonly (readonly number[])[], truth: readonly (readonly number[])[]): number {
  let hit = 0;
  let total = 0;
  for (let q = 0; q < truth.length; q++) {
    const want = new Set(truth[q]);
    const seen = new Set<number>();
    for (const id of found[q] ?? []) {
      if (want.has(id) && !seen.has(id)) hit++;
      seen.add(id);
    }
    total += truth[q]!.length;
  }
  return total === 0 ? 0 : hit / total;
}
