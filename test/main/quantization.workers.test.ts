// quantization_config through the real server (real workers, LMDB and the quantized binding),
// with the official REST client: the setting kept and reported, the graph built over int8 or
// binary codes once a shard holds enough rows (exact search before), recall against exact ground
// truth with Qdrant's params.quantization (rescore, oversampling, ignore), per-vector settings,
// PATCH to another kind and to "Disabled" rebuilding in the background, a restart, and every
// setting Quiver refuses with its message.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { call, removeDir, rng, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const DIM = 32;
const N = 3000;
const skip = process.env.QUIVER_SKIP_NATIVE_BUILD === '1';

/** Unit rows around 40 centres, and queries drawn around the same centres. */
function clustered(n: number, seed: number): number[][] {
  const centres = rng(7);
  const r = rng(seed);
  const gauss = (g: () => number): number => Math.sqrt(-2 * Math.log(g() + 1e-12)) * Math.cos(2 * Math.PI * g());
  const c = Array.from({ length: 40 }, () => Array.from({ length: DIM }, () => gauss(centres)));
  return Array.from({ length: n }, () => {
    const v = c[Math.floor(r() * c.length)]!.map((x) => x + 0.4 * gauss(r));
    const len = Math.hypot(...v);
    return v.map((x) => x / len);
  });
}

const data = clustered(N, 11);
const queries = clustered(30, 12);
const dot = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
const truth = queries.map((q) =>
  data
    .map((v, i) => [i, dot(q, v)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([i]) => i),
);

let server: TestServer;
let client: QdrantClient;
const dataDir = tempDataDir();

beforeAll(async () => {
  server = await startServer({ dataDir, shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
});
afterAll(async () => {
  await server?.stop();
  removeDir(dataDir);
});

async function fill(name: string, vector: string | null = null): Promise<void> {
  for (let i = 0; i < N; i += 500) {
    const points = data.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: vector === null ? v : { [vector]: v } }));
    await client.upsert(name, { wait: true, points });
  }
}

async function green(name: string, indexed: number): Promise<void> {
  await expect
    .poll(async () => {
      const info = await client.getCollection(name);
      return info.status === 'green' ? info.indexed_vectors_count : -1;
    }, { timeout: 60_000, interval: 100 })
    .toBe(indexed);
}

type Params = { hnsw_ef?: number; exact?: boolean; quantization?: { ignore?: boolean; rescore?: boolean; oversampling?: number } };

async function recall(name: string, params: Params, using?: string): Promise<number> {
  let hit = 0;
  for (const [i, q] of queries.entries()) {
    const found = await client.query(name, { query: q, limit: 10, params, ...(using === undefined ? {} : { using }) });
    const want = new Set(truth[i]);
    for (const p of found.points) if (want.has(Number(p.id))) hit++;
  }
  return hit / (10 * queries.length);
}

describe.skipIf(skip)('quantization_config', () => {
  it('scalar int8: kept and reported, exact below 1,000 rows a shard, then a graph over codes; recall with rescoring and oversampling', async () => {
    const quantization_config = { scalar: { type: 'int8' as const, quantile: 0.99, always_ram: true } };
    expect(await client.createCollection('q8', { vectors: { size: DIM, distance: 'Cosine' }, shard_number: 2, quantization_config })).toBe(true);
    expect((await client.getCollection('q8')).config.quantization_config).toEqual(quantization_config);
    // 1,000 points over 2 shards: below the threshold in each, so searched exactly and not indexed.
    await client.upsert('q8', { wait: true, points: data.slice(0, 1000).map((v, id) => ({ id, vector: v })) });
    const small = await client.getCollection('q8');
    expect(small.indexed_vectors_count).toBe(0);
    expect((await client.query('q8', { query: data[5]!, limit: 1 })).points[0]?.id).toBe(5);
    await fill('q8');
    await green('q8', N);

    const exact = await recall('q8', { exact: true });
    expect(exact).toBe(1);
    expect(await recall('q8', { hnsw_ef: 128, quantization: { ignore: true } })).toBe(1);
    const rescored = await recall('q8', { hnsw_ef: 128, quantization: { rescore: true, oversampling: 2 } });
    expect(rescored).toBeGreaterThanOrEqual(0.95);
    expect(await recall('q8', { hnsw_ef: 128 })).toBeGreaterThanOrEqual(0.9);

    // Scores: rescored ones are the exact cosine; without rescoring, the codes' estimate, close to it.
    const q = queries[0]!;
    const withRescore = (await client.query('q8', { query: q, limit: 5, params: { hnsw_ef: 128 }, with_vector: true })).points;
    for (const p of withRescore) expect(p.score).toBeCloseTo(dot(q, data[Number(p.id)]!), 4);
    const estimated = (await client.query('q8', { query: q, limit: 5, params: { hnsw_ef: 128, quantization: { rescore: false } } })).points;
    for (const p of estimated) {
      const real = dot(q, data[Number(p.id)]!);
      expect(Math.abs(p.score - real)).toBeLessThan(0.05);
      expect(p.score).not.toBe(real);
    }
    const memory = (await call(server.url, 'GET', '/collections/q8')).body.result.memory;
    expect(memory.graph).toBeGreaterThan(0);
  });

  it('binary per vector: reported under the vector, its recall with oversampling, the other vector unquantized', async () => {
    const vectors = {
      b: { size: DIM, distance: 'Cosine' as const, quantization_config: { binary: { encoding: 'one_bit' as const, query_encoding: 'default' as const } } },
      f: { size: DIM, distance: 'Cosine' as const },
    };
    expect(await client.createCollection('qb', { vectors, shard_number: 2 })).toBe(true);
    const info = await client.getCollection('qb');
    expect(info.config.quantization_config).toBeNull();
    expect((info.config.params.vectors as Record<string, { quantization_config?: unknown }>).b!.quantization_config).toEqual({ binary: { encoding: 'one_bit', query_encoding: 'default' } });
    expect((info.config.params.vectors as Record<string, { quantization_config?: unknown }>).f!.quantization_config).toBeUndefined();
    for (let i = 0; i < N; i += 500) {
      await client.upsert('qb', { wait: true, points: data.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: { b: v, f: v } })) });
    }
    await green('qb', 2 * N);
    expect(await recall('qb', { hnsw_ef: 200, quantization: { oversampling: 8 } }, 'b')).toBeGreaterThanOrEqual(0.95);
    expect(await recall('qb', { hnsw_ef: 128 }, 'f')).toBeGreaterThanOrEqual(0.95);
    // query_encoding scalar8bits: the float32 query against the signs, taken by a PATCH without a
    // rebuild (the graph is the same), recall at least Hamming's at the same candidates.
    const before = await recall('qb', { hnsw_ef: 200, quantization: { oversampling: 8 } }, 'b');
    await client.updateCollection('qb', { vectors: { b: { quantization_config: { binary: { query_encoding: 'scalar8bits' } } } } });
    expect((await client.getCollection('qb')).status).toBe('green');
    expect(((await client.getCollection('qb')).config.params.vectors as Record<string, { quantization_config?: unknown }>).b!.quantization_config).toEqual({ binary: { query_encoding: 'scalar8bits' } });
    expect(await recall('qb', { hnsw_ef: 200, quantization: { oversampling: 8 } }, 'b')).toBeGreaterThanOrEqual(before - 0.01);
  });

  it('PATCH to binary and then "Disabled" rebuilds in the background while searches keep answering', async () => {
    await client.createCollection('qp', { vectors: { size: DIM, distance: 'Cosine' }, shard_number: 2, quantization_config: { scalar: { type: 'int8' } } });
    await fill('qp');
    await green('qp', N);
    expect(await client.updateCollection('qp', { quantization_config: { binary: {} } })).toBe(true);
    expect((await client.query('qp', { query: data[42]!, limit: 1, params: { hnsw_ef: 128, quantization: { oversampling: 4 } } })).points[0]?.id).toBe(42);
    await green('qp', N);
    expect((await client.getCollection('qp')).config.quantization_config).toEqual({ binary: {} });
    expect(await recall('qp', { hnsw_ef: 200, quantization: { oversampling: 8 } })).toBeGreaterThanOrEqual(0.95);
    expect(await client.updateCollection('qp', { quantization_config: 'Disabled' })).toBe(true);
    await green('qp', N);
    expect((await client.getCollection('qp')).config.quantization_config).toBeNull();
    expect(await recall('qp', { hnsw_ef: 128 })).toBeGreaterThanOrEqual(0.95);
  });

  it('vectors.on_disk: the originals are read from LMDB, not held in memory; PATCH moves them back and forth', async () => {
    await client.createCollection('qd', { vectors: { size: DIM, distance: 'Cosine', on_disk: true }, shard_number: 2, quantization_config: { scalar: { type: 'int8' } } });
    await fill('qd');
    await green('qd', N);
    const bytes = async (name: string) => (await call(server.url, 'GET', `/collections/${name}`)).body.result.memory as { vectors: number; graph: number };
    const inRam = await bytes('q8');
    const onDisk = await bytes('qd');
    expect(inRam.vectors).toBeGreaterThanOrEqual(N * DIM * 4);
    // One presence byte per slot is all that is left of the rows.
    expect(onDisk.vectors).toBeLessThan(N * 2);
    expect(onDisk.graph).toBeGreaterThan(0);
    expect(await recall('qd', { hnsw_ef: 128, quantization: { oversampling: 2 } })).toBeGreaterThanOrEqual(0.95);
    expect(await recall('qd', { exact: true })).toBe(1);
    const got = await client.retrieve('qd', { ids: [7, 2999], with_vector: true });
    for (const p of got) (p.vector as number[]).forEach((x, i) => expect(x).toBeCloseTo(data[Number(p.id)]![i]!, 5));
    const hit = (await client.query('qd', { query: data[9]!, limit: 1, with_vector: true, params: { hnsw_ef: 128 } })).points[0]!;
    expect(hit.id).toBe(9);
    expect(hit.score).toBeCloseTo(1, 5);

    await client.updateCollection('qd', { vectors: { '': { on_disk: false } } });
    expect((await bytes('qd')).vectors).toBeGreaterThanOrEqual(N * DIM * 4);
    expect(await recall('qd', { hnsw_ef: 128, quantization: { oversampling: 2 } })).toBeGreaterThanOrEqual(0.95);
    await client.updateCollection('qd', { vectors: { '': { on_disk: true } } });
    expect((await bytes('qd')).vectors).toBeLessThan(N * 2);
    // Payload-only writes rewrite the record with the vectors read from LMDB; vector updates.
    await client.setPayload('qd', { wait: true, points: [5, 6], payload: { tag: 'x' } });
    await client.updateVectors('qd', { wait: true, points: [{ id: 6, vector: data[5]! }] });
    const back = await client.retrieve('qd', { ids: [5, 6], with_vector: true, with_payload: true });
    for (const p of back) {
      expect(p.payload).toEqual({ tag: 'x' });
      (p.vector as number[]).forEach((x, i) => expect(x).toBeCloseTo(data[5]![i]!, 5));
    }
    // Writes and deletes after the move: read back from LMDB as well.
    await client.upsert('qd', { wait: true, points: [{ id: 7, vector: data[8]! }] });
    await client.delete('qd', { wait: true, points: [9] });
    expect((await client.query('qd', { query: data[8]!, limit: 2, params: { hnsw_ef: 128 } })).points.map((p) => Number(p.id)).sort((a, b) => a - b)).toEqual([7, 8]);
    expect((await client.query('qd', { query: data[9]!, limit: 1, params: { hnsw_ef: 128 } })).points[0]?.id).not.toBe(9);
  });

  it('vectors.on_disk with a second copy: the read copy keeps its originals in memory, and both answer', async () => {
    await client.createCollection('qr', { vectors: { size: DIM, distance: 'Cosine', on_disk: true }, replication_factor: 2, quantization_config: { scalar: { type: 'int8' } } });
    await fill('qr');
    await green('qr', N);
    for (let i = 0; i < 20; i++) expect((await client.query('qr', { query: data[i * 100]!, limit: 1, params: { hnsw_ef: 128 } })).points[0]?.id).toBe(i * 100);
    expect(await recall('qr', { hnsw_ef: 128, quantization: { oversampling: 2 } })).toBeGreaterThanOrEqual(0.95);
  });

  it('after a restart the quantized graphs answer as before (read from their save)', async () => {
    await server.stop();
    server = await startServer({ dataDir, shards: 2 });
    client = new QdrantClient({ url: server.url, checkCompatibility: false });
    await green('q8', N);
    // qd lost point 9 to a delete above.
    await green('qd', N - 1);
    expect((await client.getCollection('q8')).config.quantization_config).toEqual({ scalar: { type: 'int8', quantile: 0.99, always_ram: true } });
    expect(await recall('q8', { hnsw_ef: 128, quantization: { oversampling: 2 } })).toBeGreaterThanOrEqual(0.95);
    expect(await recall('qd', { hnsw_ef: 128, quantization: { oversampling: 2 } })).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses what Quiver does not offer, naming it, and creates nothing', async () => {
    const put = (name: string, body: unknown) => call(server.url, 'PUT', `/collections/${name}`, body);
    const v = { size: 8, distance: 'Cosine' };
    expectError(await put('x1', { vectors: v, quantization_config: { product: { compression: 'x16' } } }), 400, 'Product quantization is not supported by Quiver: use scalar (int8) or binary quantization');
    expectError(await put('x2', { vectors: v, quantization_config: { turbo: {} } }), 400, 'Turbo quantization is not supported by Quiver');
    expectError(await put('x3', { vectors: v, quantization_config: { binary: { encoding: 'two_bits' } } }), 400, "Binary quantization encoding 'two_bits' is not supported by Quiver: use 'one_bit'");
    expectError(await put('x5', { vectors: { size: 8, distance: 'Manhattan' }, quantization_config: { scalar: { type: 'int8' } } }), 400, 'Quantization cannot apply to the unnamed vector: Manhattan distance has no HNSW graph in Quiver');
    expectError(await put('x6', { vectors: { a: { ...v, hnsw_config: { m: 0 }, quantization_config: { scalar: { type: 'int8' } } } } }), 400, "Quantization cannot apply to vector 'a': its hnsw_config.m is 0");
    const quantile = await put('x7', { vectors: v, quantization_config: { scalar: { type: 'int8', quantile: 0.3 } } });
    expect([400, 422]).toContain(quantile.status);
    expect(JSON.stringify(quantile.body)).toContain('quantile');
    for (const n of ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7']) expect((await call(server.url, 'GET', `/collections/${n}/exists`)).body.result.exists).toBe(false);
    // A PATCH is checked the same way, and leaves the setting as it was.
    expectError(await call(server.url, 'PATCH', '/collections/q8', { quantization_config: { product: { compression: 'x4' } } }), 400, 'Product quantization is not supported');
    expect((await client.getCollection('q8')).config.quantization_config).toEqual({ scalar: { type: 'int8', quantile: 0.99, always_ram: true } });
    const over = await call(server.url, 'POST', '/collections/q8/points/query', { query: data[0], params: { quantization: { oversampling: 0.5 } } });
    expect([400, 422]).toContain(over.status);
    expect(JSON.stringify(over.body)).toContain('oversampling');
  });
});
