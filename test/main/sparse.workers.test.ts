import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../helpers/random.js';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dataDir = tempDataDir();
let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ dataDir, shards: 2 });
  client = new QdrantClient({ url: server.url });
});
afterAll(async () => {
  await server.stop();
  removeDir(dataDir);
});

type Sparse = { indices: number[]; values: number[] };

function randomSparse(r: () => number, vocab: number, nnz: number): Sparse {
  const set = new Set<number>();
  while (set.size < nnz) set.add(Math.floor(r() * vocab));
  const indices = [...set];
  return { indices, values: indices.map(() => Math.fround(r() * 2)) };
}

function dot(a: Sparse, b: Sparse): number {
  const m = new Map(b.indices.map((i, k) => [i, b.values[k]!]));
  let s = 0;
  a.indices.forEach((i, k) => {
    const w = m.get(i);
    if (w !== undefined) s += a.values[k]! * w;
  });
  return s;
}

describe('sparse-only collection', () => {
  const N = 1500;
  const r = rng(31);
  const docs = Array.from({ length: N }, () => randomSparse(r, 300, 8));

  beforeAll(async () => {
    await client.createCollection('sp', { sparse_vectors: { text: {} } });
    for (let i = 0; i < N; i += 500) {
      await client.upsert('sp', {
        wait: true,
        points: docs.slice(i, i + 500).map((d, j) => ({ id: i + j, vector: { text: d }, payload: { odd: (i + j) % 2 === 1 } })),
      });
    }
  });

  it('reports its sparse config and no dense vectors', async () => {
    const info = await client.getCollection('sp');
    expect(info.config.params.sparse_vectors).toEqual({ text: { modifier: 'none' } });
    expect(info.points_count).toBe(N);
    expect(info.indexed_vectors_count).toBe(N);
  });

  it('search equals a brute-force sparse dot product (ids and scores), with and without filters', async () => {
    const qr = rng(5);
    for (let t = 0; t < 15; t++) {
      const q = randomSparse(qr, 300, 10);
      const filtered = t % 2 === 1;
      const want = docs
        .map((d, id) => ({ id, score: dot(q, d) }))
        .filter((p) => p.score !== 0 || docs[p.id]!.indices.some((i) => q.indices.includes(i)))
        .filter((p) => !filtered || p.id % 2 === 1)
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, 10);
      const got = await client.query('sp', {
        query: q,
        using: 'text',
        limit: 10,
        ...(filtered ? { filter: { must: [{ key: 'odd', match: { value: true } }] } } : {}),
      });
      expect(got.points.map((p) => p.id)).toEqual(want.map((p) => p.id));
      got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
      const legacy = await call(server.url, 'POST', '/collections/sp/points/search', { vector: { name: 'text', vector: q }, limit: 10, ...(filtered ? { filter: { must: [{ key: 'odd', match: { value: true } }] } } : {}) });
      expect(legacy.body.result.map((p: { id: number }) => p.id)).toEqual(want.map((p) => p.id));
    }
  });

  it('retrieves sparse vectors by name, sorted by index, and counts/scrolls sparse-only points', async () => {
    const [p] = await client.retrieve('sp', { ids: [7], with_vector: ['text'] });
    const want = docs[7]!;
    const order = want.indices.map((_, k) => k).sort((a, b) => want.indices[a]! - want.indices[b]!);
    const got = (p!.vector as Record<string, Sparse>).text!;
    expect(got.indices).toEqual(order.map((k) => want.indices[k]));
    // Values come back as the shortest decimals of their float32 values.
    expect(got.values.map(Math.fround)).toEqual(order.map((k) => want.values[k]));
    expect((await client.count('sp', { filter: { must: [{ has_vector: 'text' }] } })).count).toBe(N);
    expect((await client.scroll('sp', { limit: 3, with_payload: false })).points.map((x) => x.id)).toEqual([0, 1, 2]);
  });

  it('updates and deletes sparse vectors', async () => {
    await client.updateVectors('sp', { wait: true, points: [{ id: 3, vector: { text: { indices: [999], values: [5] } } }] });
    const hit = await client.query('sp', { query: { indices: [999], values: [1] }, using: 'text', limit: 5 });
    expect(hit.points.map((x) => [x.id, x.score])).toEqual([[3, 5]]);
    const del = await call(server.url, 'POST', '/collections/sp/points/vectors/delete?wait=true', { points: [3], vector: ['text'] });
    expect(del.status).toBe(200);
    expect((await client.query('sp', { query: { indices: [999], values: [1] }, using: 'text', limit: 5 })).points).toEqual([]);
    expect((await client.count('sp', { filter: { must: [{ has_vector: 'text' }] } })).count).toBe(N - 1);
    expect((await client.retrieve('sp', { ids: [3], with_vector: true }))[0]!.vector).toEqual({});
  });

  it('rejects malformed sparse vectors with 400 and writes nothing', async () => {
    const before = (await client.count('sp')).count;
    const cases: [unknown, string][] = [
      [{ indices: [1, 2], values: [1] }, 'same length'],
      [{ indices: [1, 1], values: [1, 2] }, 'appears more than once'],
      [{ indices: [-1], values: [1] }, 'indices'],
      [{ indices: [1.5], values: [1] }, 'indices'],
      ['{"indices":[1],"values":[1e400]}', 'values'],
    ];
    for (const [vec, msg] of cases) {
      const body = typeof vec === 'string' ? `{"points":[{"id":5000,"vector":{"text":${vec}}}]}` : { points: [{ id: 5000, vector: { text: vec } }] };
      const res = await call(server.url, 'PUT', '/collections/sp/points?wait=true', body);
      expect(res.status, JSON.stringify(vec)).toBe(400);
      expect(res.body.status.error, JSON.stringify(vec)).toContain(msg);
    }
    const dense = await call(server.url, 'PUT', '/collections/sp/points', { points: [{ id: 5000, vector: { text: [1, 2] } }] });
    expect(dense.status).toBe(400);
    expect(dense.body.status.error).toContain("Vector 'text' is sparse");
    expect((await client.count('sp')).count).toBe(before);
  });
});

describe('idf modifier', () => {
  it('weights query terms by ln((N - n + 0.5) / (n + 0.5) + 1) over the whole collection', async () => {
    await client.createCollection('idf', { sparse_vectors: { bm: { modifier: 'idf' } }, shard_number: 2 });
    // Term 1 is in every document, term 2 in one, term 3 in two.
    const docs: Sparse[] = [
      { indices: [1, 2], values: [1, 1] },
      { indices: [1, 3], values: [2, 1] },
      { indices: [1, 3], values: [1, 3] },
      { indices: [1], values: [1] },
    ];
    await client.upsert('idf', { wait: true, points: docs.map((d, id) => ({ id, vector: { bm: d } })) });
    const N = 4;
    const idf = (n: number) => Math.log((N - n + 0.5) / (n + 0.5) + 1);
    const w: Record<number, number> = { 1: idf(4), 2: idf(1), 3: idf(2) };
    const q: Sparse = { indices: [1, 2, 3], values: [1, 1, 1] };
    const want = docs
      .map((d, id) => ({ id, score: d.indices.reduce((s, t, k) => s + d.values[k]! * w[t]!, 0) }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
    const got = await client.query('idf', { query: q, using: 'bm', limit: 10 });
    expect(got.points.map((p) => p.id)).toEqual(want.map((p) => p.id));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
    expect((await client.getCollection('idf')).config.params.sparse_vectors).toEqual({ bm: { modifier: 'idf' } });
    // PATCH switches the modifier off: plain dot products again.
    expect(await client.updateCollection('idf', { sparse_vectors: { bm: { modifier: 'none' } } })).toBe(true);
    const plain = await client.query('idf', { query: q, using: 'bm', limit: 1 });
    expect(plain.points[0]!.id).toBe(2);
    expect(plain.points[0]!.score).toBeCloseTo(4, 5);
  });
});

describe('hybrid dense + sparse', () => {
  const N = 400;
  const dense = randomVectors(N, 8, 77);
  const r = rng(78);
  const sparse = Array.from({ length: N }, () => randomSparse(r, 100, 6));
  const qd = randomVectors(1, 8, 79)[0]!;
  const qs = randomSparse(rng(80), 100, 8);

  beforeAll(async () => {
    await client.createCollection('hy', { vectors: { dense: { size: 8, distance: 'Cosine' } }, sparse_vectors: { sparse: {} } });
    await client.upsert('hy', {
      wait: true,
      batch: { ids: dense.map((_, i) => i), vectors: { dense, sparse } },
    });
  });

  async function lists(): Promise<{ id: number | string; score: number }[][]> {
    const a = (await client.query('hy', { query: qd, using: 'dense', limit: 20 })).points;
    const b = (await client.query('hy', { query: qs, using: 'sparse', limit: 20 })).points;
    return [a, b];
  }
  const prefetch = [
    { query: qd, using: 'dense', limit: 20 },
    { query: qs, using: 'sparse', limit: 20 },
  ];

  it('rrf fuses the dense and sparse rankings', async () => {
    const m = new Map<number | string, number>();
    for (const l of await lists()) l.forEach((p, pos) => m.set(p.id, (m.get(p.id) ?? 0) + 1 / (pos + 2)));
    const want = [...m].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).slice(0, 10);
    const got = await client.query('hy', { prefetch, query: { fusion: 'rrf' }, limit: 10 });
    expect(got.points.map((p) => p.id)).toEqual(want.map(([id]) => id));
  });

  it('dbsf fuses the dense and sparse scores', async () => {
    const m = new Map<number | string, number>();
    for (const l of await lists()) {
      const mean = l.reduce((s, p) => s + p.score, 0) / l.length;
      const sd = Math.sqrt(l.reduce((s, p) => s + (p.score - mean) ** 2, 0) / (l.length - 1));
      l.forEach((p) => m.set(p.id, (m.get(p.id) ?? 0) + (p.score - (mean - 3 * sd)) / (6 * sd)));
    }
    const want = [...m].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).slice(0, 10);
    const got = await client.query('hy', { prefetch, query: { fusion: 'dbsf' }, limit: 10 });
    expect(got.points.map((p) => p.id)).toEqual(want.map(([id]) => id));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]![1], 5));
  });

  it('with_vector selects dense and sparse vectors by name', async () => {
    const [p] = await client.retrieve('hy', { ids: [0], with_vector: ['sparse'] });
    expect(Object.keys(p!.vector as object)).toEqual(['sparse']);
  });
});

describe('persistence', () => {
  it('keeps sparse vectors and their index across a restart', async () => {
    const q = { indices: [1, 2, 3], values: [1, 1, 1] };
    const before = await client.query('idf', { query: q, using: 'bm', limit: 10 });
    const beforeSp = await client.retrieve('sp', { ids: [10, 11], with_vector: true });
    await server.stop('SIGTERM');
    server = await startServer({ dataDir, shards: 2 });
    client = new QdrantClient({ url: server.url });
    expect(await client.query('idf', { query: q, using: 'bm', limit: 10 })).toEqual(before);
    expect(await client.retrieve('sp', { ids: [10, 11], with_vector: true })).toEqual(beforeSp);
  });
});
