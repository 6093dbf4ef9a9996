// Distance functions, chosen once per vector at collection load (never per request).
// Scores follow Qdrant: Cosine and Dot are similarities (higher is better); Euclid is the L2
// distance (not its square) and Manhattan the L1 distance (lower is better). Cosine vectors are
// stored normalised, so their score is a dot product.

import type { Distance } from '../../shared/types.js';

export type ScoreFn = (a: Float32Array, b: Float32Array) => number;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function euclid(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    s += d * d;
  }
  return Math.sqrt(s);
}

function manhattan(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s;
}

export interface Metric {
  score: ScoreFn;
  /** True when a higher score is a better match. */
  higherIsBetter: boolean;
  /** The hnswlib space used to find candidates, or null where hnswlib has none (Manhattan). */
  hnswSpace: 'ip' | 'l2' | null;
}

export function metricFor(distance: Distance): Metric {
  switch (distance) {
    case 'Cosine':
    case 'Dot':
      return { score: dot, higherIsBetter: true, hnswSpace: 'ip' };
    case 'Euclid':
      return { score: euclid, higherIsBetter: false, hnswSpace: 'l2' };
    case 'Manhattan':
      return { score: manhattan, higherIsBetter: false, hnswSpace: null };
  }
}

/** Normalises in place; a zero vector stays zero (its cosine with anything is 0). */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  }
  return v;
}
