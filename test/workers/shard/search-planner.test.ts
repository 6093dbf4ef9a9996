// The search planner: which candidates, and exact scoring or the HNSW graph, as Qdrant plans.

import { afterEach, describe, expect, it } from 'vitest';
import { fullScanPoints, planSearch, type PlanInput } from '../../../src/workers/shard/search-planner.js';
import { batch, metaOf, shardFixture, spec, type Fixture } from './helpers.js';

const input = (over: Partial<PlanInput>): PlanInput => ({
  only: null,
  filtered: false,
  exact: false,
  hasGraph: true,
  fromIndex: () => null,
  scan: () => [],
  threshold: 100,
  ...over,
});

describe('fullScanPoints', () => {
  it('turns kilobytes of vectors into a point count, never below k', () => {
    expect(fullScanPoints(10_000, 128, 10)).toBe(20_000); // 10 MB of 512-byte vectors
    expect(fullScanPoints(1, 1024, 10)).toBe(10);
    expect(fullScanPoints(0, 4, 3)).toBe(3);
  });
});

describe('planSearch', () => {
  it('walks the graph without a filter, over every slot', () => {
    expect(planSearch(input({}))).toEqual({ candidates: null, exact: false });
  });

  it('scores exactly when asked, when there is no graph, or for re-ranking', () => {
    expect(planSearch(input({ exact: true })).exact).toBe(true);
    expect(planSearch(input({ hasGraph: false })).exact).toBe(true);
    expect(planSearch(input({ only: [3, 1] }))).toEqual({ candidates: [3, 1], exact: true });
  });

  it('a filter whose index candidates are few is scored exactly; many go through the graph', () => {
    const few = new Set([1, 2, 3]);
    expect(planSearch(input({ filtered: true, fromIndex: () => few, threshold: 3 }))).toEqual({ candidates: few, exact: true });
    expect(planSearch(input({ filtered: true, fromIndex: () => few, threshold: 2 }))).toEqual({ candidates: few, exact: false });
  });

  it('without an index the cardinality comes from a scan, unless the search is exact anyway', () => {
    let scans = 0;
    const scan = (): number[] => {
      scans++;
      return [4, 5];
    };
    expect(planSearch(input({ filtered: true, scan, threshold: 2 }))).toEqual({ candidates: [4, 5], exact: true });
    expect(planSearch(input({ filtered: true, scan, threshold: 1 }))).toEqual({ candidates: [4, 5], exact: false });
    expect(scans).toBe(2);
    expect(planSearch(input({ filtered: true, scan, exact: true }))).toEqual({ candidates: null, exact: true });
    expect(planSearch(input({ filtered: true, scan, hasGraph: false }))).toEqual({ candidates: null, exact: true });
    expect(scans).toBe(2);
  });
});

describe('search through the planner, in a shard', () => {
  let fx: Fixture;
  afterEach(async () => fx.close());

  it('gives the same top k exactly and through HNSW, with and without an index on the filter', async () => {
    // full_scan_threshold 0: every filtered search with more than k candidates walks the graph.
    fx = shardFixture(metaOf(4, 'Euclid', { full_scan_threshold: 0 }));
    const ids = Array.from({ length: 200 }, (_, i) => i);
    const vectors = ids.map((i) => [Math.sin(i), Math.cos(i), Math.sin(i * 0.3), i / 200]);
    await fx.shard.upsert(batch(ids, vectors, ids.map((i) => ({ even: i % 2 === 0 }))), 1, true);
    const q = [0.1, 0.9, -0.2, 0.5];
    const filter = { must: [{ key: 'even', match: { value: true } }] };
    const top = (over: Parameters<typeof spec>[1]): (number | string)[] => fx.shard.search(spec(q, { k: 5, withPayload: { kind: 'none' }, ...over })).map((p) => p.id);
    const exact = top({ exact: true, filter });
    expect(exact).toHaveLength(5);
    expect(top({ filter })).toEqual(exact);
    fx.shard.createIndex('even', { type: 'bool' });
    expect(top({ filter })).toEqual(exact);
    expect(top({ exact: true })).toEqual(top({}));
  });
});
