// Exact top-k ground truth: hnswlib-node's BruteforceSearch (the portable npm build), which scans
// every point with the same float32 L2 kernel hnswlib searches with. Measured here it used about
// a seventh of the CPU of the plain JS scan (exactTopK in dataset.ts), which stays as the
// reference the unit test holds this to. Ties are ordered by id, as exactTopK orders them.

import { createRequire } from 'node:module';
import type hnswlibPortable from 'hnswlib-node';
import { rowOf } from './dataset.js';

const require = createRequire(import.meta.url);

/** Exact top-k ids by Euclid distance (or cosine) for every query, nearest first. `points`/`queries` in dataset units. */
export function groundTruth(points: Int32Array, n: number, queries: Int32Array, nq: number, dim: number, k: number, space: 'l2' | 'cosine' = 'l2'): number[][] {
  const { BruteforceSearch } = require('hnswlib-node') as typeof hnswlibPortable;
  const bf = new BruteforceSearch(space, dim);
  bf.initIndex(n);
  for (let i = 0; i < n; i++) bf.addPoint(rowOf(points, i, dim), i);
  const out: number[][] = [];
  for (let q = 0; q < nq; q++) {
    const r = bf.searchKnn(rowOf(queries, q, dim), Math.min(k, n));
    const pairs = r.neighbors.map((id, j) => ({ id, d: r.distances[j]! }));
    pairs.sort((a, b) => a.d - b.d || a.id - b.id);
    out.push(pairs.map((p) => p.id));
  }
  return out;
}
