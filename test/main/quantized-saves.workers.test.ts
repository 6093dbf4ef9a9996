// Quantized graphs saved and restored, not rebuilt, on the real server in a child process over a
// real LMDB dir (the quantized binding, real workers), through the official REST client:
// - kill -9 in the middle of an ingest into an int8 collection with its originals on disk: every
//   point acknowledged with wait=true is back with its vector and payload, the log says the graphs
//   were read and the writes after their save replayed, searches find the replayed points, and
//   recall is what it was;
// - after SIGTERM a binary collection's graph is read back whole: indexed at once, nothing replayed;
// - a PATCH to another quantization after the save: that graph is built again, the save's other
//   graphs and ids still used.

import { QdrantClient } from '@qdrant/js-client-rest';
import { describe, expect, it } from 'vitest';
import { killDuringIngest, loaded, recallAgainstExact, restarts } from '../helpers/restarts.js';
import { rng } from '../helpers/server.js';

const DIM = 32;
const skip = process.env.QUIVER_SKIP_NATIVE_BUILD === '1';
const { start, newDir } = restarts();

/** Unit rows around `k` centres of the sphere (seeded), `n` of them. */
function clustered(n: number, k: number, seed: number, centreSeed = 7): number[][] {
  const cr = rng(centreSeed);
  const r = rng(seed);
  const gauss = (g: () => number): number => Math.sqrt(-2 * Math.log(g() + 1e-12)) * Math.cos(2 * Math.PI * g());
  const c = Array.from({ length: k }, () => Array.from({ length: DIM }, () => gauss(cr)));
  return Array.from({ length: n }, () => {
    const v = c[Math.floor(r() * k)]!.map((x) => x + 0.35 * gauss(r));
    const len = Math.hypot(...v);
    return v.map((x) => x / len);
  });
}



async function indexed(client: QdrantClient, name: string, want: number): Promise<void> {
  await expect.poll(async () => (await client.getCollection(name)).indexed_vectors_count, { timeout: 60_000, interval: 100 }).toBe(want);
}

describe.skipIf(skip)('quantized graph saves and restart', () => {
  it('kill -9 during an ingest into int8 with originals on disk: acknowledged points back, graphs read and writes replayed, not rebuilt', async () => {
    const dataDir = newDir();
    const env = { SERVICE_GRAPH_SAVE_WRITES: '1000', SERVICE_GRAPH_SAVE_SECONDS: '0' };
    const s1 = await start(dataDir, env);
    const c1 = new QdrantClient({ url: s1.url, checkCompatibility: false });
    await c1.createCollection('k', {
      vectors: { size: DIM, distance: 'Cosine', on_disk: true },
      shard_number: 2,
      hnsw_config: { m: 8, ef_construct: 32 },
      quantization_config: { scalar: { type: 'int8', quantile: 0.99 } },
    });
    const first = clustered(4000, 24, 2);
    for (let i = 0; i < first.length; i += 500) {
      await c1.upsert('k', { wait: true, points: first.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: v, payload: { i: i + j } })) });
    }
    await indexed(c1, 'k', first.length);
    const queries = clustered(12, 24, 3);
    const before = await recallAgainstExact(c1, 'k', queries, { hnsw_ef: 64 });

    // Four writers at once, two waiting for the flush; killed when 30 wait=true batches are acknowledged.
    const second = clustered(6000, 24, 5);
    const BASE = first.length;
    const acked = await killDuringIngest(s1, c1, 'k', second, BASE);

    const s2 = await start(dataDir, env);
    const c2 = new QdrantClient({ url: s2.url, checkCompatibility: false });
    const points = (await c2.count('k', { exact: true })).count;
    expect(points).toBeGreaterThanOrEqual(BASE + acked.length);
    const log = loaded(s2, 'k')!;
    expect(log).toMatchObject({ shards: 2, points, graphs_loaded: 2, graphs_rebuilt: 0 });
    expect(log.replayed_writes).toBeGreaterThan(0);
    expect(log.replayed_writes).toBeLessThan(points);
    const got = await c2.retrieve('k', { ids: acked, with_payload: true, with_vector: true });
    expect(got.length).toBe(acked.length);
    for (const p of got) {
      const id = Number(p.id);
      expect(p.payload).toMatchObject({ i: id });
      expect((p.vector as number[]).map((x) => Math.fround(x))).toEqual(second[id - BASE]!.map((x) => Math.fround(x)));
    }
    // Replayed points are found by the quantized search (in the graph, or scored beside it until then).
    for (const id of [acked[0]!, acked[acked.length - 1]!]) expect((await c2.query('k', { query: second[id - BASE]!, limit: 1 })).points[0]!.id).toBe(id);
    await indexed(c2, 'k', points);
    expect(await recallAgainstExact(c2, 'k', queries, { hnsw_ef: 64 })).toBeGreaterThanOrEqual(before - 0.05);
    expect((await c2.getCollection('k')).config.quantization_config).toEqual({ scalar: { type: 'int8', quantile: 0.99 } });
    expect(await s2.stop('SIGTERM')).toBe(0);

    // The clean shutdown saved what was replayed: nothing to replay now, indexed at once.
    const s3 = await start(dataDir, env);
    expect(loaded(s3, 'k')).toMatchObject({ points, graphs_loaded: 2, graphs_rebuilt: 0, replayed_writes: 0 });
    const c3 = new QdrantClient({ url: s3.url, checkCompatibility: false });
    expect((await c3.getCollection('k')).indexed_vectors_count).toBe(points);
    await s3.stop('SIGTERM');
  }, 240_000);

  it('binary after SIGTERM is read back whole; a PATCH to int8 after the save builds that graph again, the float vector beside it read', async () => {
    const dataDir = newDir();
    const s1 = await start(dataDir);
    const c1 = new QdrantClient({ url: s1.url, checkCompatibility: false });
    await c1.createCollection('b', {
      vectors: { q: { size: DIM, distance: 'Cosine', quantization_config: { binary: {} } }, f: { size: DIM, distance: 'Cosine' } },
      shard_number: 2,
      hnsw_config: { m: 8, ef_construct: 32 },
    });
    const data = clustered(3000, 24, 9);
    for (let i = 0; i < data.length; i += 500) {
      await c1.upsert('b', { wait: true, points: data.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: { q: v, f: v } })) });
    }
    await indexed(c1, 'b', 2 * data.length);
    expect(await s1.stop('SIGTERM')).toBe(0);

    const s2 = await start(dataDir);
    expect(loaded(s2, 'b')).toMatchObject({ points: 3000, graphs_loaded: 4, graphs_rebuilt: 0, replayed_writes: 0 });
    const c2 = new QdrantClient({ url: s2.url, checkCompatibility: false });
    // Both graphs of both shards at once: nothing was built after the load.
    expect((await c2.getCollection('b')).indexed_vectors_count).toBe(2 * data.length);
    for (const i of [0, 1500, 2999]) {
      const hit = await c2.query('b', { query: data[i]!, using: 'q', limit: 1, params: { quantization: { oversampling: 4 } } });
      expect(hit.points[0]!.id).toBe(i);
    }
    await c2.updateCollection('b', { vectors: { q: { quantization_config: { scalar: { type: 'int8' } } } } });
    await indexed(c2, 'b', 2 * data.length);
    // Killed before any save covers the new setting: its saved graph is binary's, not used.
    await s2.stop('SIGKILL');

    const s3 = await start(dataDir);
    const log = loaded(s3, 'b')!;
    // The float vector's two graphs read; the quantized ones' entries (binary's) passed over.
    expect(log).toMatchObject({ points: 3000, graphs_loaded: 2, graphs_rebuilt: 0, replayed_writes: 0 });
    const c3 = new QdrantClient({ url: s3.url, checkCompatibility: false });
    expect((await c3.getCollection('b')).config.params.vectors).toMatchObject({ q: { quantization_config: { scalar: { type: 'int8' } } } });
    await indexed(c3, 'b', 2 * data.length);
    for (const i of [7, 2000]) expect((await c3.query('b', { query: data[i]!, using: 'q', limit: 1 })).points[0]!.id).toBe(i);
    await s3.stop('SIGTERM');
  }, 240_000);
});
