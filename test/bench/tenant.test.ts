// The tenant bench's pure helpers (bench/lib/tenants.ts): a wrong tenant assignment, truth or
// leak count would make its recall and "other tenants' points" figures lie.

import { describe, expect, it } from 'vitest';
import { makeDataset } from '../../bench/lib/dataset.js';
import { bruteForce } from '../../bench/lib/seeded-data.js';
import { assignTenants, checkAnswers, idsOfTenant, unitRows } from '../../bench/lib/tenants.js';

describe('assignTenants', () => {
  it('is seeded, fills every tenant, and sizes them unevenly (Zipf)', () => {
    const a = assignTenants(20_000, 20, 7);
    expect(Array.from(a)).toEqual(Array.from(assignTenants(20_000, 20, 7)));
    const sizes = Array.from({ length: 20 }, (_, t) => idsOfTenant(a, t).length);
    expect(sizes.reduce((s, x) => s + x, 0)).toBe(20_000);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    // weights 1/(j+1): t0 about 28%, t19 about 1.4%
    expect(sizes[0]! / 20_000).toBeGreaterThan(0.25);
    expect(sizes[19]! / 20_000).toBeLessThan(0.02);
  });
});

describe('unitRows', () => {
  it('scales each row to unit length', () => {
    const ds = makeDataset({ n: 10, queries: 1, dim: 6, clusters: 2, sigma: 0.3, seed: 1 });
    const u = unitRows(ds.points, 10, 6);
    for (let i = 0; i < 10; i++) {
      let s = 0;
      for (let d = 0; d < 6; d++) s += u[i * 6 + d]! ** 2;
      expect(s).toBeCloseTo(1, 5);
    }
  });

  it('with bruteForce among a tenant ids, answers only that tenant', () => {
    const ds = makeDataset({ n: 500, queries: 5, dim: 8, clusters: 4, sigma: 0.3, seed: 2 });
    const tenantOf = assignTenants(500, 5, 3);
    const truth = bruteForce(unitRows(ds.points, 500, 8), unitRows(ds.queries, 5, 8), 5, 8, 10, idsOfTenant(tenantOf, 2));
    for (const ids of truth) {
      expect(ids).toHaveLength(10);
      for (const id of ids) expect(tenantOf[id]).toBe(2);
    }
  });
});

describe('checkAnswers', () => {
  const tenantOf = Uint8Array.from([0, 1, 1, 0, 1]);
  it('counts recall against the truth and every point of another tenant', () => {
    const r = checkAnswers([[1, 2], [4, 0]], [[1, 2], [4, 2]], tenantOf, 1);
    expect(r.recall).toBe(3 / 4);
    expect(r.foreign).toBe(1);
    expect(r.foreignIds).toEqual([0]);
    expect(r.short).toBe(0);
  });

  it('counts short answers, an id no point has as foreign, and no tenant when unbound', () => {
    expect(checkAnswers([[1], [99]], [[1, 2], [4]], tenantOf, 1)).toMatchObject({ short: 1, foreign: 1, foreignIds: [99] });
    expect(checkAnswers([[0, 1]], [[0, 1]], tenantOf, null)).toMatchObject({ recall: 1, foreign: 0 });
  });
});
