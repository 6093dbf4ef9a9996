// Search and the Query API in process (InProcessDispatcher), checked against a brute-force
// oracle: filters, offset, thresholds, batches, the result window, query by point id, prefetch
// with re-ranking, and rrf fusion of two prefetches.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doCreateCollection } from '../../../src/main/service/collections.js';
import { doUpsert } from '../../../src/workers/service/points.js';
import { doQuery } from '../../../src/workers/service/query.js';
import { doSearch, doSearchBatch } from '../../../src/workers/service/search.js';
import { exactTopK } from '../../helpers/oracle.js';
import { rng } from '../../helpers/random.js';
import { startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

let q: InProcessQuiver;
const C = 'srch';
const r = rng(12);
const points = Array.from({ length: 60 }, (_, id) => ({ id, vector: Array.from({ length: 4 }, () => r() * 2 - 1) }));
const even = points.filter((p) => p.id % 2 === 0);
const query = [0.3, -0.5, 0.8, 0.1];
const other = [-0.7, 0.2, 0.1, 0.6];
const ids = (res: { id: unknown }[]): unknown[] => res.map((p) => p.id);

beforeAll(async () => {
  q = await startInProcess();
  await doCreateCollection(q.engine, C, { vectors: { size: 4, distance: 'Dot' }, shard_number: 2 });
  await doUpsert(q.engine, C, { points: points.map((p) => ({ ...p, payload: { n: p.id, even: p.id % 2 === 0 } })) }, true);
});
afterAll(async () => {
  await q.close();
});

describe('search service, in process', () => {
  it('exact search merges the shards into the oracle ranking', async () => {
    const res = await doSearch(q.engine, C, { vector: query, limit: 10, params: { exact: true } });
    const want = exactTopK('Dot', query, points, 10);
    expect(ids(res)).toEqual(ids(want));
    res.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
  });

  it('a filter and an offset page through the filtered ranking', async () => {
    const filter = { must: [{ key: 'even', match: { value: true } }] };
    const want = exactTopK('Dot', query, even, 10);
    const page1 = await doSearch(q.engine, C, { vector: query, limit: 5, filter, params: { exact: true } });
    const page2 = await doSearch(q.engine, C, { vector: query, limit: 5, offset: 5, filter, params: { exact: true } });
    expect([...ids(page1), ...ids(page2)]).toEqual(ids(want));
  });

  it('score_threshold cuts the ranking and payload comes when asked', async () => {
    const want = exactTopK('Dot', query, points, 60).filter((p) => p.score >= 0.5);
    const res = await doSearch(q.engine, C, { vector: query, limit: 60, score_threshold: 0.5, with_payload: true, params: { exact: true } });
    expect(ids(res)).toEqual(ids(want));
    expect(res[0]!.payload).toEqual({ n: want[0]!.id, even: want[0]!.id % 2 === 0 });
  });

  it('a batch answers each search in order', async () => {
    const res = await doSearchBatch(q.engine, C, [
      { vector: query, limit: 3, params: { exact: true } },
      { vector: other, limit: 3, params: { exact: true } },
    ]);
    expect(res.map(ids)).toEqual([ids(exactTopK('Dot', query, points, 3)), ids(exactTopK('Dot', other, points, 3))]);
  });

  it('limit + offset beyond the result window is refused', async () => {
    await expect(doSearch(q.engine, C, { vector: query, limit: 100_000, offset: 1 })).rejects.toMatchObject({ code: 'BadInput' });
  });

  it('an unknown vector name or a wrong dimension is refused', async () => {
    await expect(doSearch(q.engine, C, { vector: { name: 'nope', vector: query }, limit: 1 })).rejects.toMatchObject({ code: 'BadInput' });
    await expect(doSearch(q.engine, C, { vector: [1, 2], limit: 1 })).rejects.toMatchObject({ code: 'BadInput' });
  });
});

describe('query service, in process', () => {
  it('a nearest query answers what search answers, with offset', async () => {
    const res = await doQuery(q.engine, C, { query, limit: 4, offset: 2, params: { exact: true } });
    expect(ids(res.points)).toEqual(ids(exactTopK('Dot', query, points, 6)).slice(2));
  });

  it('a query by point id searches with its vector and leaves the point out', async () => {
    const p = points[7]!;
    const res = await doQuery(q.engine, C, { query: 7, limit: 5, params: { exact: true } });
    expect(ids(res.points)).toEqual(ids(exactTopK('Dot', p.vector, points.filter((x) => x.id !== 7), 5)));
  });

  it('a query over a prefetch re-ranks only the prefetched points', async () => {
    const filter = { must: [{ key: 'even', match: { value: true } }] };
    const res = await doQuery(q.engine, C, {
      prefetch: { query: other, limit: 15, filter, params: { exact: true } },
      query,
      limit: 5,
      params: { exact: true },
    });
    const candidates = exactTopK('Dot', other, even, 15).map((c) => points[c.id]!);
    expect(ids(res.points)).toEqual(ids(exactTopK('Dot', query, candidates, 5)));
  });

  it('rrf fuses two prefetches by rank', async () => {
    const a = exactTopK('Dot', query, points, 10);
    const b = exactTopK('Dot', other, points, 10);
    const fused = new Map<number, number>();
    // Qdrant's RRF with its default k = 2: 1 / (rank + 1) per list, rank from 1.
    for (const list of [a, b]) list.forEach((p, i) => fused.set(p.id, (fused.get(p.id) ?? 0) + 1 / (i + 2)));
    const want = [...fused].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 6);
    const res = await doQuery(q.engine, C, {
      prefetch: [
        { query, limit: 10, params: { exact: true } },
        { query: other, limit: 10, params: { exact: true } },
      ],
      query: { fusion: 'rrf' },
      limit: 6,
    });
    expect(ids(res.points)).toEqual(want.map(([id]) => id));
    res.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]![1], 6));
  });

  it('a query without a vector lists points by id', async () => {
    const res = await doQuery(q.engine, C, { limit: 3 });
    expect(ids(res.points)).toEqual([0, 1, 2]);
  });
});
