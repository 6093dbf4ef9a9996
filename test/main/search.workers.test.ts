import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactTopK, type Dist } from '../helpers/oracle.js';
import { call, randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function fill(name: string, dist: Dist, vectors: number[][], extra: Record<string, unknown> = {}): Promise<void> {
  await client.createCollection(name, { vectors: { size: vectors[0]!.length, distance: dist }, ...extra });
  for (let i = 0; i < vectors.length; i += 500) {
    await client.upsert(name, {
      wait: true,
      points: vectors.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: v, payload: { n: i + j, even: (i + j) % 2 === 0 } })),
    });
  }
}

describe.each<Dist>(['Cosine', 'Dot', 'Euclid', 'Manhattan'])('%s distance', (dist) => {
  const name = `dist_${dist.toLowerCase()}`;
  const data = randomVectors(300, 8, 7);
  const points = data.map((vector, id) => ({ id, vector }));
  const queries = randomVectors(10, 8, 99);

  beforeAll(async () => {
    await fill(name, dist, data);
  });

  it('exact search returns the oracle ids, order and scores', async () => {
    for (const q of queries) {
      // js-client-rest 1.19 has no search(): the legacy endpoint is reached with fetch.
      const r = await call(server.url, 'POST', `/collections/${name}/points/search`, { vector: q, limit: 10, params: { exact: true } });
      expect(r.status).toBe(200);
      const res = r.body.result as { id: number; score: number }[];
      const want = exactTopK(dist, q, points, 10);
      expect(res.map((p) => p.id)).toEqual(want.map((p) => p.id));
      res.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 4));
    }
  });

  it('HNSW search (default params) agrees with the oracle on small data', async () => {
    for (const q of queries) {
      const res = await client.query(name, { query: q, limit: 10 });
      const want = exactTopK(dist, q, points, 10);
      expect(res.points.map((p) => p.id)).toEqual(want.map((p) => p.id));
    }
  });

  it('offset pages through the same ranking and score_threshold cuts it', async () => {
    const q = queries[0]!;
    const want = exactTopK(dist, q, points, 20);
    const page2 = await client.query(name, { query: q, limit: 10, offset: 10, params: { exact: true } });
    expect(page2.points.map((p) => p.id)).toEqual(want.slice(10, 20).map((p) => p.id));
    const threshold = want[4]!.score;
    const cut = await client.query(name, { query: q, limit: 20, score_threshold: threshold, params: { exact: true } });
    expect(cut.points.map((p) => p.id)).toEqual(want.slice(0, 5).map((p) => p.id));
  });
});

describe('HNSW recall', () => {
  it('recall@10 >= 0.95 against brute force on 4,000 random vectors', async () => {
    const data = randomVectors(4000, 32, 1234);
    await fill('recall', 'Cosine', data);
    const points = data.map((vector, id) => ({ id, vector }));
    const queries = randomVectors(50, 32, 4321);
    let hits = 0;
    for (const q of queries) {
      const got = new Set((await client.query('recall', { query: q, limit: 10 })).points.map((p) => p.id));
      hits += exactTopK('Cosine', q, points, 10).filter((p) => got.has(p.id)).length;
    }
    expect(hits / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
    const info = await client.getCollection('recall');
    expect(info.points_count).toBe(4000);
    expect(info.indexed_vectors_count).toBe(4000);
  });
});

describe('filtered search', () => {
  const data = randomVectors(3000, 16, 77);
  const points = data.map((vector, id) => ({ id, vector }));
  const queries = randomVectors(20, 16, 78);

  async function recall(name: string, filter: object, keep: (id: number) => boolean): Promise<number> {
    let hits = 0;
    let total = 0;
    for (const q of queries) {
      const got = new Set((await client.query(name, { query: q, limit: 10, filter })).points.map((p) => p.id as number));
      const want = exactTopK('Cosine', q, points.filter((p) => keep(p.id)), 10);
      hits += want.filter((p) => got.has(p.id)).length;
      total += want.length;
    }
    return hits / total;
  }

  it('keeps recall for selective filters (exact over few candidates) and broad ones (HNSW with the filter)', async () => {
    // full_scan_threshold 6 KB (96 points of 16-d float vectors): a 1% filter (30 points) is scored
    // exactly, a 50% one goes through HNSW.
    await fill('filtered', 'Cosine', data, { hnsw_config: { full_scan_threshold: 6 } });
    const onePercent = { must: [{ key: 'n', range: { lt: 30 } }] };
    expect(await recall('filtered', onePercent, (id) => id < 30)).toBe(1);
    const half = { must: [{ key: 'even', match: { value: true } }] };
    expect(await recall('filtered', half, (id) => id % 2 === 0)).toBeGreaterThanOrEqual(0.95);
    const none = await client.query('filtered', { query: queries[0]!, limit: 10, filter: { must: [{ key: 'n', range: { gt: 1e9 } }] } });
    expect(none.points).toEqual([]);
  });
});

describe('shards', () => {
  const data = randomVectors(600, 16, 55);
  beforeAll(async () => {
    await fill('one_shard', 'Euclid', data, { shard_number: 1 });
    await fill('two_shards', 'Euclid', data, { shard_number: 2 });
  });

  it('spreads one collection over both workers', async () => {
    const r = await call(server.url, 'GET', '/collections/two_shards/cluster');
    expect(r.status).toBe(200);
    const shards = r.body.result.local_shards as { shard_id: number; points_count: number; worker: number }[];
    expect(shards).toHaveLength(2);
    expect(new Set(shards.map((s) => s.worker)).size).toBe(2);
    for (const s of shards) expect(s.points_count).toBeGreaterThan(200);
    expect(shards.reduce((n, s) => n + s.points_count, 0)).toBe(600);
  });

  it('answers exactly as a single-shard collection with the same data', async () => {
    for (const q of randomVectors(10, 16, 66)) {
      const body = { query: q, limit: 15, with_payload: true, params: { exact: true } };
      const a = await call(server.url, 'POST', '/collections/one_shard/points/query', body);
      const b = await call(server.url, 'POST', '/collections/two_shards/points/query', body);
      expect(b.body.result.points.map((p: { id: number }) => p.id)).toEqual(a.body.result.points.map((p: { id: number }) => p.id));
      expect(b.body.result.points.map((p: { score: number }) => p.score)).toEqual(a.body.result.points.map((p: { score: number }) => p.score));
    }
    const ca = await client.count('one_shard', { exact: true });
    const cb = await client.count('two_shards', { exact: true });
    expect(cb.count).toBe(ca.count);
  });
});

describe('search and query shapes', () => {
  beforeAll(async () => {
    await client.createCollection('named', {
      vectors: { text: { size: 3, distance: 'Cosine' }, image: { size: 2, distance: 'Euclid' } },
    });
    await client.upsert('named', {
      wait: true,
      points: [
        { id: 1, vector: { text: [1, 0, 0], image: [0, 0] }, payload: { k: 'a' } },
        { id: 2, vector: { text: [0, 1, 0], image: [1, 1] }, payload: { k: 'b' } },
        { id: 'a3bb189e-8bf9-3888-9912-ace4e6543002', vector: { text: [0.9, 0.1, 0] }, payload: { k: 'c' } },
      ],
    });
  });

  it('searches a named vector with {name, vector} and with query + using', async () => {
    const s = await call(server.url, 'POST', '/collections/named/points/search', { vector: { name: 'image', vector: [0.9, 0.9] }, limit: 5 });
    expect(s.status).toBe(200);
    expect(s.body.result.map((p: { id: number }) => p.id)).toEqual([2, 1]);
    expect(s.body.result[0].score).toBeCloseTo(Math.sqrt(0.02), 5);
    const q = await client.query('named', { query: [1, 0, 0], using: 'text', limit: 2, with_payload: ['k'] });
    expect(q.points.map((p) => p.id)).toEqual([1, 'a3bb189e-8bf9-3888-9912-ace4e6543002']);
    expect(q.points[0]!.payload).toEqual({ k: 'a' });
  });

  it('query by point id searches with its vector and leaves the point out', async () => {
    const q = await client.query('named', { query: 1, using: 'text', limit: 2 });
    expect(q.points.map((p) => p.id)).toEqual(['a3bb189e-8bf9-3888-9912-ace4e6543002', 2]);
    const n = await client.query('named', { query: { nearest: [0, 1, 0] }, using: 'text', limit: 1, with_vector: true });
    expect(n.points[0]!.id).toBe(2);
    expect(n.points[0]!.vector).toEqual({ text: [0, 1, 0], image: [1, 1] });
  });

  it('search batch and query batch answer each search in order', async () => {
    const sb = await call(server.url, 'POST', '/collections/named/points/search/batch', {
      searches: [
        { vector: { name: 'text', vector: [0, 1, 0] }, limit: 1 },
        { vector: { name: 'image', vector: [0, 0] }, limit: 1 },
      ],
    });
    expect(sb.status).toBe(200);
    expect(sb.body.result.map((r: { id: number }[]) => r[0]!.id)).toEqual([2, 1]);
    const qb = await client.queryBatch('named', {
      searches: [
        { query: [0, 1, 0], using: 'text', limit: 1 },
        { query: [1, 1], using: 'image', limit: 1 },
      ],
    });
    expect(qb.map((r) => r.points[0]!.id)).toEqual([2, 2]);
  });

  it('returns payload only when asked, and filters results', async () => {
    const plain = await call(server.url, 'POST', '/collections/named/points/search', { vector: { name: 'text', vector: [1, 0, 0] }, limit: 3 });
    expect(plain.body.result[0].payload).toBeUndefined();
    const f = await client.query('named', {
      query: [1, 0, 0],
      using: 'text',
      limit: 3,
      with_payload: true,
      filter: { must: [{ key: 'k', match: { any: ['b', 'c'] } }] },
    });
    expect(f.points.map((p) => p.payload!.k)).toEqual(['c', 'b']);
  });
});
