// Multivectors (multivector_config max_sim) through the real server and both official clients:
// collection settings, upsert/retrieve/update/delete, MaxSim nearest queries for every distance
// against scores computed here, the ColBERT recipe (a dense prefetch reranked by MaxSim), queries
// by example, the distance matrix, uint8 rows, a restart, and every bad request with its status
// and message.

import { QdrantClient } from '@qdrant/js-client-rest';
import type { QdrantClient as GrpcClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, id, idOf } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;
let grpc: GrpcClient;

type Rows = number[][];
const r = rng(11);
const vec = (dim: number): number[] => Array.from({ length: dim }, () => Math.fround(r() * 2 - 1));
const norm = (v: number[]): number[] => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => Math.fround(x / n));
};
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
const sq = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0);

/** Qdrant's MaxSim: per query row, its best similarity among the document's rows, summed; then the distance's final step. */
function maxSim(q: Rows, d: Rows, distance: 'Cosine' | 'Dot' | 'Euclid'): number {
  if (distance === 'Euclid') return Math.sqrt(q.reduce((s, qi) => s + Math.min(...d.map((dj) => sq(qi, dj))), 0));
  const prep = (rows: Rows) => (distance === 'Cosine' ? rows.map(norm) : rows);
  const dq = prep(d);
  return prep(q).reduce((s, qi) => s + Math.max(...dq.map((dj) => dot(qi, dj))), 0);
}

const N = 24;
const dense = new Map<number, number[]>();
const colbert = new Map<number, Rows>();
for (let i = 1; i <= N; i++) {
  dense.set(i, vec(4));
  colbert.set(i, Array.from({ length: 1 + (i % 4) }, () => vec(4)));
}

/** The points by MaxSim to `q`, best first, ties by id. */
function ranked(q: Rows, distance: 'Cosine' | 'Dot' | 'Euclid', among: Iterable<number>, rows: Map<number, Rows> = colbert): { id: number; score: number }[] {
  const lower = distance === 'Euclid';
  return [...among].map((i) => ({ id: i, score: maxSim(q, rows.get(i)!, distance) })).sort((a, b) => (lower ? a.score - b.score : b.score - a.score) || a.id - b.id);
}

function expectRanked(got: { id: unknown; score: number }[], want: { id: number; score: number }[]): void {
  expect(got.map((p) => p.id)).toEqual(want.map((p) => p.id));
  got.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 4));
}

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  grpc = grpcClient(server);
  await client.createCollection('mv', {
    vectors: { dense: { size: 4, distance: 'Cosine' }, colbert: { size: 4, distance: 'Cosine', multivector_config: { comparator: 'max_sim' }, hnsw_config: { m: 0 } } },
    shard_number: 2,
  });
  await client.upsert('mv', { wait: true, points: [...dense].map(([i, d]) => ({ id: i, vector: { dense: d, colbert: colbert.get(i)! }, payload: { even: i % 2 === 0 } })) });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('multivector collections', () => {
  it('reports multivector_config, and no indexed vectors for the multivector (no graph)', async () => {
    const info = await client.getCollection('mv');
    expect(info.config.params.vectors).toMatchObject({ colbert: { size: 4, distance: 'Cosine', multivector_config: { comparator: 'max_sim' } } });
    expect(info.points_count).toBe(N);
    // The dense vector's graph indexes every point; the multivector adds none.
    expect(info.indexed_vectors_count).toBe(N);
  });

  it('returns the rows stored, each normalised for Cosine', async () => {
    const [p] = await client.retrieve('mv', { ids: [3], with_vector: ['colbert'] });
    const got = (p!.vector as Record<string, Rows>).colbert!;
    const want = colbert.get(3)!.map(norm);
    expect(got).toHaveLength(want.length);
    got.forEach((row, i) => row.forEach((x, j) => expect(x).toBeCloseTo(want[i]![j]!, 6)));
  });

  it('a nearest query by a multivector ranks every point by MaxSim', async () => {
    const q = [vec(4), vec(4), vec(4)];
    const res = await client.query('mv', { query: q, using: 'colbert', limit: 6 });
    expectRanked(res.points, ranked(q, 'Cosine', colbert.keys()).slice(0, 6));
    // With a filter and an offset, over both shards.
    const even = await client.query('mv', { query: { nearest: q }, using: 'colbert', limit: 3, offset: 2, filter: { must: [{ key: 'even', match: { value: true } }] } });
    expectRanked(even.points, ranked(q, 'Cosine', [...colbert.keys()].filter((i) => i % 2 === 0)).slice(2, 5));
  });

  it('a plain vector queries a multivector as its one row', async () => {
    const q = vec(4);
    const res = await client.query('mv', { query: q, using: 'colbert', limit: 4 });
    expectRanked(res.points, ranked([q], 'Cosine', colbert.keys()).slice(0, 4));
  });

  it('reranks a dense prefetch by MaxSim (the ColBERT recipe)', async () => {
    const d = vec(4);
    const q = [vec(4), vec(4)];
    const first = [...dense].map(([i, v]) => ({ i, s: dot(norm(d), norm(v)) })).sort((a, b) => b.s - a.s).slice(0, 8).map((x) => x.i);
    const res = await client.query('mv', { prefetch: { query: d, using: 'dense', limit: 8, params: { exact: true } }, query: q, using: 'colbert', limit: 3, with_payload: true });
    expectRanked(res.points, ranked(q, 'Cosine', first).slice(0, 3));
    expect(res.points[0]!.payload).toEqual({ even: (res.points[0]!.id as number) % 2 === 0 });
  });

  it('a query by point id takes its rows and leaves the point out', async () => {
    const res = await client.query('mv', { query: 5, using: 'colbert', limit: 3 });
    expectRanked(res.points, ranked(colbert.get(5)!, 'Cosine', [...colbert.keys()].filter((i) => i !== 5)).slice(0, 3));
  });

  it('recommend, discover and context score by MaxSim against each example', async () => {
    const others = [...colbert.keys()].filter((i) => i !== 1 && i !== 2);
    const sim = (a: number, b: number) => maxSim(colbert.get(a)!, colbert.get(b)!, 'Cosine');
    const sigmoid = (x: number) => 0.5 * (x / (1 + Math.abs(x)) + 1);
    const best = await client.query('mv', { query: { recommend: { positive: [1], negative: [2], strategy: 'best_score' } }, using: 'colbert', limit: 4 });
    const wantBest = others
      .map((i) => {
        const p = sim(1, i);
        const n = sim(2, i);
        return { id: i, score: p > n ? sigmoid(p) : -sigmoid(n) };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id);
    expectRanked(best.points, wantBest.slice(0, 4));

    // average_vector: one multivector of the positives' rows and the negatives' rows negated.
    const avg = await client.query('mv', { query: { recommend: { positive: [1], negative: [2] } }, using: 'colbert', limit: 4 });
    const q = [...colbert.get(1)!.map(norm), ...colbert.get(2)!.map(norm).map((row) => row.map((x) => -x))];
    expectRanked(avg.points, ranked(q, 'Cosine', others).slice(0, 4));

    const disc = await client.query('mv', { query: { discover: { target: 1, context: [{ positive: 2, negative: 3 }] } }, using: 'colbert', limit: 3 });
    const rest = others.filter((i) => i !== 3);
    const wantDisc = rest.map((i) => ({ id: i, score: Math.sign(sim(2, i) - sim(3, i)) + sigmoid(sim(1, i)) })).sort((a, b) => b.score - a.score || a.id - b.id);
    expectRanked(disc.points, wantDisc.slice(0, 3));
  });

  it('the distance matrix scores sampled points by MaxSim', async () => {
    const res = await client.searchMatrixPairs('mv', { sample: N, limit: 1, using: 'colbert' });
    expect(res.pairs).toHaveLength(N);
    for (const p of res.pairs) expect(p.score).toBeCloseTo(maxSim(colbert.get(p.a as number)!, colbert.get(p.b as number)!, 'Cosine'), 4);
  });

  it('updates, deletes and filters on a multivector', async () => {
    const rows = [vec(4), vec(4)];
    await client.updateVectors('mv', { wait: true, points: [{ id: 7, vector: { colbert: rows } }] });
    const res = await client.query('mv', { query: rows, using: 'colbert', limit: 1, with_vector: ['colbert'] });
    expect(res.points[0]!.id).toBe(7);
    expect((res.points[0]!.vector as Record<string, Rows>).colbert).toHaveLength(2);
    colbert.set(7, rows);

    await client.deleteVectors('mv', { wait: true, points: [8], vector: ['colbert'] });
    const without = await client.count('mv', { filter: { must_not: [{ has_vector: 'colbert' }] }, exact: true });
    expect(without.count).toBe(1);
    const q = [vec(4)];
    const all = await client.query('mv', { query: q, using: 'colbert', limit: N });
    expect(all.points.map((p) => p.id)).not.toContain(8);
    expect(all.points).toHaveLength(N - 1);
    // Back as it was, for the tests after this one.
    await client.updateVectors('mv', { wait: true, points: [{ id: 8, vector: { colbert: colbert.get(8)! } }] });
  });

  it('Euclid and Dot multivectors, unnamed, in a collection of their own', async () => {
    await client.createCollection('mve', { vectors: { size: 3, distance: 'Euclid', multivector_config: { comparator: 'max_sim' } } });
    const rows = new Map<number, Rows>([1, 2, 3, 4, 5].map((i) => [i, Array.from({ length: i }, () => vec(3))]));
    await client.upsert('mve', { wait: true, points: [...rows].map(([i, v]) => ({ id: i, vector: v })) });
    const q = [vec(3), vec(3)];
    const res = await client.query('mve', { query: q, limit: 5 });
    expectRanked(res.points, ranked(q, 'Euclid', rows.keys(), rows));
    const [p] = await client.retrieve('mve', { ids: [2], with_vector: true });
    expect(p!.vector).toHaveLength(2);
    const info = await client.getCollection('mve');
    expect(info.indexed_vectors_count).toBe(0);
  });

  it('uint8 multivectors keep bytes, cast as Qdrant casts (truncated, saturated)', async () => {
    await client.createCollection('mvu', { vectors: { size: 3, distance: 'Dot', datatype: 'uint8', multivector_config: { comparator: 'max_sim' } } });
    await client.upsert('mvu', { wait: true, points: [{ id: 1, vector: [[300, -1, 1.5], [2, 3, 4]] }, { id: 2, vector: [[1, 1, 1]] }] });
    const [p] = await client.retrieve('mvu', { ids: [1], with_vector: true });
    expect(p!.vector).toEqual([[255, 0, 1], [2, 3, 4]]);
    const res = await client.query('mvu', { query: [[1, 0, 0], [0, 1, 2]], limit: 2 });
    // Point 1: max(255, 2) + max(1*0+0+2, 3 + 8) = 255 + 11; point 2: 1 + 3.
    expect(res.points.map((x) => [x.id, x.score])).toEqual([[1, 266], [2, 4]]);
    const info = await client.getCollection('mvu');
    expect(info.config.params.vectors).toMatchObject({ datatype: 'uint8', multivector_config: { comparator: 'max_sim' } });
  });
});

describe('multivectors over gRPC', () => {
  it('upserts, retrieves and queries multi_dense vectors as REST does', async () => {
    const rows = [vec(4), vec(4), vec(4)];
    const multi = { vector: { case: 'multiDense' as const, value: { vectors: rows.map((data) => ({ data })) } } };
    await grpc.api('points').upsert({
      collectionName: 'mv',
      wait: true,
      points: [{ id: id(100), vectors: { vectorsOptions: { case: 'vectors' as const, value: { vectors: { colbert: multi, dense: { vector: { case: 'dense' as const, value: { data: vec(4) } } } } } } }, payload: {} }],
    });
    colbert.set(100, rows);
    const got = await grpc.api('points').get({ collectionName: 'mv', ids: [id(100)], withVectors: { selectorOptions: { case: 'include', value: { names: ['colbert'] } } } });
    const out = got.result[0]!.vectors!.vectorsOptions;
    expect(out.case).toBe('vectors');
    const v = (out.value as { vectors: Record<string, { vector: { case: string; value: { vectors: { data: number[] }[] } } }> }).vectors.colbert!;
    expect(v.vector.case).toBe('multiDense');
    v.vector.value.vectors.forEach((row, i) => row.data.forEach((x, j) => expect(x).toBeCloseTo(norm(rows[i]!)[j]!, 6)));

    const q = [vec(4), vec(4)];
    const res = await grpc.api('points').query({
      collectionName: 'mv',
      query: { variant: { case: 'nearest', value: { variant: { case: 'multiDense', value: { vectors: q.map((data) => ({ data })) } } } } },
      using: 'colbert',
      limit: 5n,
    });
    const rest = await client.query('mv', { query: q, using: 'colbert', limit: 5 });
    expect(res.result.map(idOf)).toEqual(rest.points.map((p) => p.id));
    expectRanked(res.result.map((p) => ({ id: idOf(p), score: p.score })), ranked(q, 'Cosine', colbert.keys()).slice(0, 5));
  });

  it('creates a multivector collection with its settings', async () => {
    await grpc.api('collections').create({
      collectionName: 'gmv',
      vectorsConfig: { config: { case: 'params', value: { size: 2n, distance: 1, multivectorConfig: { comparator: 0 } } } },
    });
    const info = await call(server.url, 'GET', '/collections/gmv');
    expect(info.body.result.config.params.vectors).toMatchObject({ size: 2, distance: 'Cosine', multivector_config: { comparator: 'max_sim' } });
  });
});

describe('multivectors after a restart', () => {
  it('reads the rows back from LMDB and answers as before', async () => {
    const q = [vec(4), vec(4)];
    const before = await client.query('mv', { query: q, using: 'colbert', limit: 5 });
    const u8 = await client.retrieve('mvu', { ids: [1], with_vector: true });
    await server.stop();
    server = await startServer({ shards: 2, dataDir: server.dataDir });
    client = new QdrantClient({ url: server.url, checkCompatibility: false });
    const after = await client.query('mv', { query: q, using: 'colbert', limit: 5 });
    expect(after.points).toEqual(before.points);
    expect(await client.retrieve('mvu', { ids: [1], with_vector: true })).toEqual(u8);
  });
});

describe('multivector errors', () => {
  const post = (path: string, body: unknown) => call(server.url, 'POST', path, body);
  const put = (path: string, body: unknown) => call(server.url, 'PUT', path, body);

  it('refuses rows of the wrong size, ragged or empty rows, and multi/plain mix-ups', async () => {
    let res = await put('/collections/mv/points?wait=true', { points: [{ id: 1, vector: { colbert: [[1, 2, 3]] } }] });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Wrong input: Vector dimension error: expected dim: 4, got 3');
    res = await put('/collections/mv/points?wait=true', { points: [{ id: 1, vector: { colbert: [[1, 2, 3, 4], [1, 2, 3]] } }] });
    expect(res.status).toBe(422);
    expect(res.body.status.error).toMatch(/all vectors must have the same dimension, found vector with dimension 3/);
    res = await put('/collections/mv/points?wait=true', { points: [{ id: 1, vector: { colbert: [[1, 2, 3, 4], []] } }] });
    expect(res.status).toBe(422);
    expect(res.body.status.error).toMatch(/all vectors must be non-empty/);
    res = await put('/collections/mv/points?wait=true', { points: [{ id: 1, vector: { dense: [[1, 2, 3, 4]] } }] });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Wrong input: Conversion between multi and regular vectors failed');
    res = await post('/collections/mv/points/query', { query: [[1, 2, 3, 4]], using: 'dense' });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Wrong input: Conversion between multi and regular vectors failed');
    res = await post('/collections/mv/points/query', { query: [[1, 2]], using: 'colbert' });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Wrong input: Vector dimension error: expected dim: 4, got 2');
    // Nothing of the refused writes landed.
    const [p] = await client.retrieve('mv', { ids: [1], with_vector: ['colbert'] });
    expect((p!.vector as Record<string, Rows>).colbert).toHaveLength(colbert.get(1)!.length);
  });

  it('refuses settings that cannot apply to a multivector, and mmr over one', async () => {
    const multi = { size: 4, distance: 'Dot', multivector_config: { comparator: 'max_sim' } };
    let res = await put('/collections/bad1', { vectors: { ...multi, quantization_config: { scalar: { type: 'int8' } } } });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toMatch(/quantization_config cannot apply to the unnamed vector, a multivector/);
    res = await put('/collections/bad2', { vectors: { ...multi, on_disk: true } });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toMatch(/on_disk: true cannot apply to the unnamed vector, a multivector: Quiver keeps multivectors in memory/);
    res = await put('/collections/bad3', { vectors: { size: 4, distance: 'Dot', datatype: 'uint8' } });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toMatch(/datatype 'uint8' of the unnamed vector is not supported/);
    // An unknown comparator does not read, as serde's unknown variant: 400.
    res = await put('/collections/bad4', { vectors: { ...multi, multivector_config: { comparator: 'sum' } } });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toMatch(/comparator/);
    res = await post('/collections/mv/points/query', { query: { nearest: [[1, 2, 3, 4]], mmr: { diversity: 0.5 } }, using: 'colbert' });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toMatch(/mmr is not supported on multivector 'colbert'/);
    for (const name of ['bad1', 'bad2', 'bad3', 'bad4']) expect((await call(server.url, 'GET', `/collections/${name}`)).status).toBe(404);
  });
});
