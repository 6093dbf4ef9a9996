// PATCH of hnsw_config (m, ef_construct) rebuilds the HNSW graphs in the background, as Qdrant's
// optimizer does: the collection reports status yellow meanwhile, the old graph serves, writes
// made during the rebuild reach the new graph, and the graph saved at shutdown carries the new
// parameters. A graph saved with other parameters than the configuration's is rebuilt at start.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, describe, expect, it } from 'vitest';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { decodeManifest } from '../../src/workers/shard/graph-snapshots.js';

const N = 6000;
const DIM = 16;
const data = randomVectors(N + 200, DIM, 17);
const dataDir = tempDataDir();
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  removeDir(dataDir);
});

async function start(): Promise<{ server: TestServer; client: QdrantClient }> {
  const server = await startServer({ dataDir, shards: 2 });
  servers.push(server);
  return { server, client: new QdrantClient({ url: server.url, checkCompatibility: false }) };
}

/** The m each saved graph was built with, from the manifests a clean shutdown writes. */
function savedM(): number[] {
  const dir = join(dataDir, 'hnsw');
  return readdirSync(dir)
    .filter((f) => f.endsWith('-manifest.bin'))
    .map((f) => decodeManifest(readFileSync(join(dir, f))).spaces['']?.m ?? -1);
}

const engineReady = (s: TestServer) => s.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((r) => r.msg === 'engine ready')!;
// A wide ef makes finding a point by its own vector all but certain, on a loaded machine too.
const nearest = async (client: QdrantClient, i: number) => (await client.query('h', { query: data[i]!, limit: 1, params: { hnsw_ef: 256 } })).points[0]?.id;

describe('hnsw_config change', () => {
  it('rebuilds the graphs in the background and keeps serving and writing meanwhile', async () => {
    const { server, client } = await start();
    await client.createCollection('h', { vectors: { size: DIM, distance: 'Cosine' }, hnsw_config: { m: 8, ef_construct: 32 }, shard_number: 2 });
    for (let i = 0; i < N; i += 1000) {
      await client.upsert('h', { wait: true, points: data.slice(i, i + 1000).map((v, j) => ({ id: i + j, vector: v })) });
    }
    expect(await client.updateCollection('h', { hnsw_config: { m: 24, ef_construct: 64 } })).toBe(true);
    // Writes while the graphs are rebuilt: new points, deleted points.
    await client.upsert('h', { wait: true, points: data.slice(N).map((v, j) => ({ id: N + j, vector: v })) });
    await client.delete('h', { wait: true, points: Array.from({ length: 100 }, (_, i) => i) });
    expect(await nearest(client, 4242)).toBe(4242);

    await expect.poll(async () => (await client.getCollection('h')).status, { timeout: 60_000, interval: 200 }).toBe('green');
    const info = await client.getCollection('h');
    expect(info.config.hnsw_config.m).toBe(24);
    expect(info.points_count).toBe(N + 100);
    expect(info.indexed_vectors_count).toBe(N + 100);
    // Through the new graphs: a point written during the rebuild is found, a deleted one is not.
    expect(await nearest(client, N + 150)).toBe(N + 150);
    expect(await nearest(client, 50)).not.toBe(50);

    expect(await server.stop()).toBe(0);
    expect(savedM()).toEqual([24, 24]);
    const again = await start();
    expect(engineReady(again.server).hnsw_restored_shards).toBe(2);
    expect(await nearest(again.client, N + 150)).toBe(N + 150);
    await again.server.stop();
  }, 120_000);

  it('takes m = 0 as no graph (exact search), builds one when m rises, and refuses m = 1', async () => {
    const { server, client } = await start();
    try {
      await client.createCollection('flat', { vectors: { size: DIM, distance: 'Dot' }, hnsw_config: { m: 0 } });
      await client.upsert('flat', { wait: true, points: data.slice(0, 2000).map((v, j) => ({ id: j, vector: v })) });
      const top = async () => (await client.query('flat', { query: data[77]!, limit: 3 })).points.map((p) => p.id);
      const exact = (await client.query('flat', { query: data[77]!, limit: 3, params: { exact: true } })).points.map((p) => p.id);
      expect((await client.getCollection('flat')).indexed_vectors_count).toBe(0);
      expect(await top()).toEqual(exact);

      await client.updateCollection('flat', { hnsw_config: { m: 16 } });
      await expect.poll(async () => (await client.getCollection('flat')).status, { timeout: 60_000, interval: 200 }).toBe('green');
      expect((await client.getCollection('flat')).indexed_vectors_count).toBe(2000);
      await client.updateCollection('flat', { hnsw_config: { m: 0 } });
      expect((await client.getCollection('flat')).indexed_vectors_count).toBe(0);
      expect(await top()).toEqual(exact);

      for (const [method, path, body] of [
        ['PATCH', '/collections/flat', { hnsw_config: { m: 1 } }],
        ['PUT', '/collections/m1', { vectors: { size: 2, distance: 'Dot', hnsw_config: { m: 1 } } }],
      ] as const) {
        const r = await call(server.url, method, path, body);
        expect(r.status).toBe(400);
        expect(r.body.status.error).toBe('hnsw_config.m must be 0 (no HNSW graph: searches are exact) or at least 2, got 1');
      }
      expect(await client.collectionExists('m1')).toEqual({ exists: false });
      await client.deleteCollection('flat');
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('rebuilds at start a graph saved with other parameters than the configuration', async () => {
    const { server, client } = await start();
    // Stop at once: the graph saved may still be the old one (m 24) while the configuration says 12.
    await client.updateCollection('h', { hnsw_config: { m: 12 } });
    expect(await server.stop()).toBe(0);
    const again = await start();
    const ready = engineReady(again.server);
    expect(Number(ready.hnsw_restored_shards) + Number(ready.hnsw_rebuilt_shards)).toBe(2);
    expect(await nearest(again.client, 4242)).toBe(4242);
    await expect.poll(async () => (await again.client.getCollection('h')).status, { timeout: 60_000, interval: 200 }).toBe('green');
    expect(await again.server.stop()).toBe(0);
    expect(savedM()).toEqual([12, 12]);
  }, 120_000);
});
