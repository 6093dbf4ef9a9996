// MMR re-ranking (src/workers/service/mmr.ts) on small hand-checked cases: lambda = 1 - diversity,
// the first pick is the most relevant, each later pick maximises
// lambda * relevance - (1 - lambda) * (highest similarity to a pick), and bad parameters are
// refused with a message that names them.

import { describe, expect, it } from 'vitest';
import { QuiverError } from '../../src/shared/errors.js';
import { mmrOrder, mmrParams, similarityFor, type MmrCandidate } from '../../src/workers/service/mmr.js';

// Query [1, 0]; a and b are near-duplicates, c points elsewhere and is a little less relevant.
const q = [1, 0];
const vecs: Record<string, number[]> = { a: [1, 0], b: [0.98, 0.2], c: [0.6, -0.8], d: [0.1, 1] };
const dot = similarityFor('Dot');
const candidates: MmrCandidate[] = Object.entries(vecs).map(([id, v]) => ({ id, relevance: dot(q, v), vector: v }));
const ids = (order: number[]) => order.map((i) => candidates[i]!.id);

describe('mmrOrder', () => {
  it('with diversity 0 is the relevance order', async () => {
    expect(ids(await mmrOrder(candidates, 1, 4, dot))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('with diversity prefers a point unlike those picked over a near-duplicate', async () => {
    // lambda 0.2. After a, each scores 0.2 * relevance - 0.8 * similarity to a:
    // b 0.196 - 0.784 = -0.588, c 0.12 - 0.48 = -0.36, d 0.02 - 0.08 = -0.06: d.
    // Then against the closer of a and d: b -0.588 (a), c 0.12 - 0.8 * 0.6 = -0.36 (a): c.
    expect(ids(await mmrOrder(candidates, 0.2, 3, dot))).toEqual(['a', 'd', 'c']);
  });

  it('stops at the number of picks or of candidates, and handles none', async () => {
    expect(await mmrOrder(candidates, 0.5, 2, dot)).toHaveLength(2);
    expect(await mmrOrder(candidates, 0.5, 10, dot)).toHaveLength(4);
    expect(await mmrOrder([], 0.5, 3, dot)).toEqual([]);
    expect(await mmrOrder(candidates, 0.5, 0, dot)).toEqual([]);
  });

  it('starts from the most relevant candidate wherever it sits', async () => {
    const shuffled = [candidates[2]!, candidates[0]!, candidates[3]!];
    expect(await mmrOrder(shuffled, 0, 1, dot)).toEqual([1]);
  });
});

describe('similarityFor', () => {
  it('is higher-is-better for every measure', () => {
    expect(similarityFor('Euclid')([0, 0], [3, 4])).toBe(-5);
    expect(similarityFor('Manhattan')([0, 0], [3, -4])).toBe(-7);
    expect(similarityFor('Cosine')([0.6, 0.8], [0.6, 0.8])).toBeCloseTo(1, 12);
    expect(similarityFor('sparse')({ indices: [1, 5], values: [2, 3] }, { indices: [5, 9], values: [4, 1] })).toBe(12);
  });
});

describe('mmrParams', () => {
  it('defaults diversity to 0.5 and leaves the candidate count to the page', () => {
    expect(mmrParams({})).toEqual({ lambda: 0.5, candidates: null });
    expect(mmrParams({ diversity: null, candidates_limit: 20 })).toEqual({ lambda: 0.5, candidates: 20 });
    expect(mmrParams({ diversity: 0.8 })!.lambda).toBeCloseTo(0.2, 12);
    expect(mmrParams(null)).toBeNull();
    expect(mmrParams(undefined)).toBeNull();
  });

  it.each([
    [{ diversity: 1.5 }, 'mmr.diversity must be a number from 0 to 1, got 1.5'],
    [{ diversity: '0.5' }, 'mmr.diversity must be a number from 0 to 1, got "0.5"'],
    [{ candidates_limit: 20_000 }, 'mmr.candidates_limit must be an integer from 0 to 16384, got 20000'],
    [{ candidates_limit: 2.5 }, 'mmr.candidates_limit must be an integer from 0 to 16384, got 2.5'],
    [{ lambda: 0.5 }, "mmr: unknown field 'lambda'"],
    [[0.5], 'mmr: expected an object {diversity, candidates_limit}'],
  ])('refuses %j', (raw, message) => {
    let err: unknown;
    try {
      mmrParams(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(QuiverError);
    expect((err as QuiverError).code).toBe('BadInput');
    expect((err as QuiverError).message).toBe(message);
  });
});
