import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;
const N = 300;
const A = randomVectors(N, 6, 1);
const B = randomVectors(N, 4, 2);

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url });
  await client.createCollection('q', { vectors: { a: { size: 6, distance: 'Dot' }, b: { size: 4, distance: 'Euclid' } } });
  await client.upsert('q', {
    wait: true,
    points: Array.from({ length: N }, (_, i) => ({ id: i, vector: { a: A[i]!, b: B[i]! }, payload: { i, even: i % 2 === 0, rank: N - i } })),
  });
  await client.createPayloadIndex('q', { field_name: 'rank', field_schema: 'integer', wait: true });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

type P = { id: number | string; score: number };
const qa = randomVectors(1, 6, 50)[0]!;
const qb = randomVectors(1, 4, 51)[0]!;

async function lists(filter?: Record<string, unknown>): Promise<[P[], P[]]> {
  const la = (await client.query('q', { query: qa, using: 'a', limit: 20, ...(filter ? { filter } : {}) })).points as P[];
  const lb = (await client.query('q', { query: qb, using: 'b', limit: 20, ...(filter ? { filter } : {}) })).points as P[];
  return [la, lb];
}

function fuse(ls: P[][], contrib: (list: P[], pos: number) => number): P[] {
  const m = new Map<number | string, number>();
  for (const l of ls) l.forEach((p, pos) => m.set(p.id, (m.get(p.id) ?? 0) + contrib(l, pos)));
  return [...m].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score || Number(x.id) - Number(y.id));
}

const prefetch = [
  { query: qa, using: 'a', limit: 20 },
  { query: qb, using: 'b', limit: 20 },
];

describe('fusion', () => {
  it('rrf scores each point 1/(position + 2) per list, summed', async () => {
    const expected = fuse(await lists(), (_l, pos) => 1 / (pos + 2)).slice(0, 10);
    const got = await client.query('q', { prefetch, query: { fusion: 'rrf' }, limit: 10 });
    expect(got.points.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(expected[i]!.score, 6));
  });

  it('rrf with k and weights', async () => {
    const [la, lb] = await lists();
    const w = [3, 1];
    const expected = fuse([la, lb], (l, pos) => 1 / ((pos + 1) / w[l === la ? 0 : 1]! + 60 - 1)).slice(0, 10);
    const got = await call(server.url, 'POST', '/collections/q/points/query', { prefetch, query: { rrf: { k: 60, weights: w } }, limit: 10 });
    expect(got.status).toBe(200);
    expect(got.body.result.points.map((p: P) => p.id)).toEqual(expected.map((p) => p.id));
    const bad = await call(server.url, 'POST', '/collections/q/points/query', { prefetch, query: { rrf: { weights: [1] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.status.error).toContain('Number of weights in RRF should match number of pre-fetches: got 1, expected 2');
  });

  it('dbsf normalises each list by mean +- 3 sample sd and sums', async () => {
    const ls = await lists();
    const norms = ls.map((l) => {
      const mean = l.reduce((s, p) => s + p.score, 0) / l.length;
      const sd = Math.sqrt(l.reduce((s, p) => s + (p.score - mean) ** 2, 0) / (l.length - 1));
      return (s: number) => (s - (mean - 3 * sd)) / (6 * sd);
    });
    const expected = fuse(ls, (l, pos) => norms[l === ls[0] ? 0 : 1]!(l[pos]!.score)).slice(0, 10);
    const got = await client.query('q', { prefetch, query: { fusion: 'dbsf' }, limit: 10, with_payload: ['i'] });
    expect(got.points.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    got.points.forEach((p, i) => {
      expect(p.score).toBeCloseTo(expected[i]!.score, 5);
      expect(p.payload).toEqual({ i: p.id });
    });
  });

  it('the root filter reaches every prefetch, and score_threshold cuts fused scores', async () => {
    const filter = { must: [{ key: 'even', match: { value: true } }] };
    const expected = fuse(await lists(filter), (_l, pos) => 1 / (pos + 2));
    const got = await client.query('q', { prefetch, query: { fusion: 'rrf' }, filter, limit: 40 });
    expect(got.points.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(got.points.every((p) => Number(p.id) % 2 === 0)).toBe(true);
    const cut = await client.query('q', { prefetch, query: { fusion: 'rrf' }, filter, limit: 40, score_threshold: 0.3 });
    expect(cut.points.map((p) => p.id)).toEqual(expected.filter((p) => p.score >= 0.3).map((p) => p.id));
  });

  it('answers 400 for fusion without prefetch', async () => {
    const r = await call(server.url, 'POST', '/collections/q/points/query', { query: { fusion: 'rrf' } });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toContain('Fusion needs prefetch');
  });
});

describe('prefetch re-ranking', () => {
  it('a nearest query re-ranks only the prefetched candidates, exactly', async () => {
    const [la] = await lists();
    const candidates = new Set(la.map((p) => p.id));
    const got = await client.query('q', { prefetch: { query: qa, using: 'a', limit: 20 }, query: qb, using: 'b', limit: 5, with_vector: ['b'] });
    expect(got.points).toHaveLength(5);
    for (const p of got.points) {
      expect(candidates.has(p.id)).toBe(true);
      const v = (p.vector as Record<string, number[]>).b!;
      expect(p.score).toBeCloseTo(Math.sqrt(v.reduce((s, x, i) => s + (x - qb[i]!) ** 2, 0)), 5);
    }
    const scores = got.points.map((p) => p.score);
    expect([...scores].sort((x, y) => x - y)).toEqual(scores);
  });

  it('nested prefetches narrow step by step', async () => {
    const inner = (await client.query('q', { query: qa, using: 'a', limit: 50 })).points.map((p) => p.id);
    const got = await client.query('q', {
      prefetch: { prefetch: { query: qa, using: 'a', limit: 50 }, query: qb, using: 'b', limit: 10 },
      query: qa,
      using: 'a',
      limit: 3,
    });
    expect(got.points.every((p) => inner.includes(p.id))).toBe(true);
    expect(got.points).toHaveLength(3);
  });
});

describe('other query kinds', () => {
  it('order_by orders by an indexed payload key', async () => {
    const got = await client.query('q', { query: { order_by: { key: 'rank', direction: 'desc' } }, limit: 3, with_payload: ['rank'] });
    expect(got.points.map((p) => p.id)).toEqual([0, 1, 2]);
    expect(got.points.map((p) => p.payload!.rank)).toEqual([N, N - 1, N - 2]);
  });

  it('sample random returns distinct matching points', async () => {
    const filter = { must: [{ key: 'even', match: { value: false } }] };
    const a = await call(server.url, 'POST', '/collections/q/points/query', { query: { sample: 'random' }, filter, limit: 20 });
    expect(a.status).toBe(200);
    const ids = a.body.result.points.map((p: P) => p.id as number);
    expect(new Set(ids).size).toBe(20);
    expect(ids.every((id: number) => id % 2 === 1)).toBe(true);
    const b = await call(server.url, 'POST', '/collections/q/points/query', { query: { sample: 'random' }, filter, limit: 20 });
    // 150 odd points: two draws of 20 coinciding exactly would mean no randomness.
    expect(b.body.result.points.map((p: P) => p.id)).not.toEqual(ids);
  });

  it('no query lists points by id, with offset', async () => {
    const got = await client.query('q', { limit: 4, offset: 10 });
    expect(got.points.map((p) => p.id)).toEqual([10, 11, 12, 13]);
  });

  it('query batch through the official client', async () => {
    const res = await client.queryBatch('q', {
      searches: [
        { prefetch, query: { fusion: 'rrf' }, limit: 2 },
        { query: qa, using: 'a', limit: 1 },
      ],
    });
    expect(res).toHaveLength(2);
    expect(res[0]!.points).toHaveLength(2);
    expect(res[1]!.points[0]!.id).toBe((await lists())[0][0]!.id);
  });

});
