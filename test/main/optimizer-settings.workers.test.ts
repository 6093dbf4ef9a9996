// optimizers_config and wal_config through the real server: kept and reported over REST and gRPC
// (Qdrant's defaults for the fields not given), and indexing turned off by `indexing_threshold: 0`
// or `max_optimization_threads: 0`: no graph (0 indexed vectors, searches exact) until a PATCH
// turns it back on, which builds the graphs in the background while searches keep answering.

import { MaxOptimizationThreads_Setting } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const DIM = 8;
const r = rng(11);
const rows = Array.from({ length: 600 }, () => Array.from({ length: DIM }, () => r() * 2 - 1));

/** The exact top k by dot product. */
function exactTop(q: number[], k: number): number[] {
  return rows
    .map((row, id) => ({ id, s: row.reduce((a, x, i) => a + x * q[i]!, 0) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((h) => h.id);
}

async function settled(name: string): Promise<{ indexed: number; status: string }> {
  for (;;) {
    const info = await client.getCollection(name);
    if (info.status === 'green') return { indexed: info.indexed_vectors_count ?? 0, status: info.status };
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('optimizers_config and wal_config', () => {
  it('reports what was given, over Qdrant defaults, and merges PATCHes', async () => {
    await client.createCollection('kept', {
      vectors: { size: DIM, distance: 'Dot' },
      optimizers_config: { deleted_threshold: 0.3, default_segment_number: 4, max_optimization_threads: 'auto' as unknown as number },
      wal_config: { wal_capacity_mb: 64, wal_retain_closed: 3 },
    });
    const before = (await client.getCollection('kept')).config;
    expect(before.optimizer_config).toEqual({
      deleted_threshold: 0.3,
      vacuum_min_vector_number: 1000,
      default_segment_number: 4,
      max_segment_size: null,
      memmap_threshold: null,
      indexing_threshold: 10000,
      flush_interval_sec: 5,
      // "auto" is Qdrant's null: no fixed count.
      max_optimization_threads: null,
      prevent_unoptimized: null,
    });
    expect(before.wal_config).toEqual({ wal_capacity_mb: 64, wal_segments_ahead: 0, wal_retain_closed: 3 });
    await client.updateCollection('kept', { optimizers_config: { flush_interval_sec: 9, max_optimization_threads: 3, deleted_threshold: null } });
    const after = (await client.getCollection('kept')).config.optimizer_config;
    expect(after).toMatchObject({ deleted_threshold: 0.3, default_segment_number: 4, flush_interval_sec: 9, max_optimization_threads: 3 });
    // Not of Qdrant's types: its format errors, and nothing changes.
    expectError(await call(server.url, 'PATCH', '/collections/kept', { optimizers_config: { max_optimization_threads: 'many' } }), 400,
      'Format error in JSON body: body.optimizers_config.max_optimization_threads: unknown variant, expected one of "auto"');
    expectError(await call(server.url, 'PATCH', '/collections/kept', { optimizers_config: { prevent_unoptimized: 'yes' } }), 400, 'optimizers_config.prevent_unoptimized');
    expect((await client.getCollection('kept')).config.optimizer_config).toEqual(after);
  });

  it('indexing_threshold 0 builds no graph and searches exactly; turned back on, the graph is built', async () => {
    await client.createCollection('off', { vectors: { size: DIM, distance: 'Dot' }, shard_number: 2, optimizers_config: { indexing_threshold: 0 } });
    await client.upsert('off', { wait: true, points: rows.map((vector, id) => ({ id, vector, payload: { even: id % 2 === 0 } })) });
    expect(await settled('off')).toEqual({ indexed: 0, status: 'green' });
    const queries = [rows[3]!, rows[300]!, rows[599]!.map((x) => -x)];
    for (const q of queries) {
      expect((await client.query('off', { query: q, limit: 10 })).points.map((p) => p.id)).toEqual(exactTop(q, 10));
    }
    // Turned on: the graphs are built in the background, and the same searches answer throughout.
    await client.updateCollection('off', { optimizers_config: { indexing_threshold: 20000 } });
    const during = await client.query('off', { query: queries[0]!, limit: 10 });
    expect(during.points.length).toBe(10);
    expect(await settled('off')).toEqual({ indexed: rows.length, status: 'green' });
    expect((await client.getCollection('off')).config.optimizer_config.indexing_threshold).toBe(20000);
    // ef 600 over 600 points: the graph finds the exact top 10.
    for (const q of queries) {
      expect((await client.query('off', { query: q, limit: 10, params: { hnsw_ef: 600 } })).points.map((p) => p.id)).toEqual(exactTop(q, 10));
    }
    // max_optimization_threads 0 is Qdrant's other off switch.
    await client.updateCollection('off', { optimizers_config: { max_optimization_threads: 0 } });
    expect(await settled('off')).toEqual({ indexed: 0, status: 'green' });
    expect((await client.query('off', { query: queries[1]!, limit: 5 })).points.map((p) => p.id)).toEqual(exactTop(queries[1]!, 5));
    // Writes while off are searched too.
    await client.upsert('off', { wait: true, points: [{ id: 1000, vector: queries[1]!.map((x) => x * 10) }] });
    expect((await client.query('off', { query: queries[1]!, limit: 1 })).points[0]!.id).toBe(1000);
  });

  it('gRPC: the same settings in, the same report out', async () => {
    const grpc = grpcClient(server);
    await grpc.api('collections').create({
      collectionName: 'g',
      vectorsConfig: { config: { case: 'params', value: { size: BigInt(DIM), distance: 2 } } },
      optimizersConfig: { indexingThreshold: 0n, maxOptimizationThreads: { variant: { case: 'setting', value: MaxOptimizationThreads_Setting.Auto } } },
      walConfig: { walCapacityMb: 16n, walRetainClosed: 2n },
    });
    const rest = (await client.getCollection('g')).config;
    expect(rest.optimizer_config).toMatchObject({ indexing_threshold: 0, max_optimization_threads: null });
    expect(rest.wal_config).toEqual({ wal_capacity_mb: 16, wal_segments_ahead: 0, wal_retain_closed: 2 });
    await grpc.api('collections').update({ collectionName: 'g', optimizersConfig: { maxOptimizationThreads: { variant: { case: 'value', value: 0n } }, indexingThreshold: 5000n } });
    const info = (await grpc.api('collections').get({ collectionName: 'g' })).result!;
    expect(info.config?.optimizerConfig?.indexingThreshold).toBe(5000n);
    expect(info.config?.optimizerConfig?.maxOptimizationThreads?.variant).toEqual({ case: 'value', value: 0n });
    expect(info.config?.walConfig).toMatchObject({ walCapacityMb: 16n, walSegmentsAhead: 0n, walRetainClosed: 2n });
    // The deprecated plain count is read where the new field is absent.
    await grpc.api('collections').update({ collectionName: 'g', optimizersConfig: { deprecatedMaxOptimizationThreads: 2n } });
    expect((await client.getCollection('g')).config.optimizer_config.max_optimization_threads).toBe(2);
  });
});
