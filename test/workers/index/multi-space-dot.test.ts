// MultiSpace's blocked dot-product MaxSim (four of a point's rows at a time) against the plain
// pairwise sum, for row counts around the block's size.

import { describe, expect, it } from 'vitest';
import { multiScore } from '../../../src/workers/index/multi-space.js';
import { rng } from '../../helpers/random.js';

describe('MaxSim by dot products', () => {
  it('equals the pairwise sum for any number of rows', () => {
    const r = rng(3);
    const dim = 5;
    const rows = (n: number) => Float32Array.from({ length: n * dim }, () => r() * 2 - 1);
    for (const [m, n] of [[1, 1], [2, 3], [3, 4], [1, 5], [4, 7], [6, 8], [2, 9]] as const) {
      const q = rows(m);
      const d = rows(n);
      let want = 0;
      for (let a = 0; a < m; a++) {
        let best = -Infinity;
        for (let b = 0; b < n; b++) {
          let s = 0;
          for (let i = 0; i < dim; i++) s += q[a * dim + i]! * d[b * dim + i]!;
          best = Math.max(best, s);
        }
        want += best;
      }
      expect(multiScore('Dot', 'float32', q, d, dim)).toBeCloseTo(want, 10);
    }
  });
});
