import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, describe, expect, it } from 'vitest';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dataDir = tempDataDir();
const running: TestServer[] = [];

async function start(waitReady = true, env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startServer({ dataDir, shards: 2, waitReady, env });
  running.push(s);
  return s;
}

afterAll(async () => {
  for (const s of running) await s.stop('SIGKILL');
  removeDir(dataDir);
});

describe('durability across restarts', () => {
  const N = 20_000;
  const DIM = 48;
  const data = randomVectors(N, DIM, 3);
  const queries = randomVectors(5, DIM, 4);
  let before: unknown[] = [];
  let lastOp = 0;

  it('writes, stops with SIGTERM, and finds everything after a restart, HNSW graphs read back', async () => {
    const s1 = await start();
    const c1 = new QdrantClient({ url: s1.url });
    await c1.createCollection('keep', { vectors: { size: DIM, distance: 'Cosine' }, hnsw_config: { m: 8, ef_construct: 40 }, shard_number: 2 });
    await c1.createCollection('named', { vectors: { a: { size: 2, distance: 'Dot' } }, shard_number: 1 });
    for (let i = 0; i < N; i += 2000) {
      const r = await c1.upsert('keep', {
        wait: true,
        points: data.slice(i, i + 2000).map((v, j) => ({ id: i + j, vector: v, payload: { i: i + j, tag: `t${(i + j) % 7}` } })),
      });
      lastOp = r.operation_id!;
    }
    await c1.upsert('named', { wait: true, points: [{ id: 'e3b0c442-98fc-1c14-9afb-f4c8996fb924', vector: { a: [1, 2] }, payload: { x: [1, { y: null }] } }] });
    await c1.delete('keep', { wait: true, points: [0, 1, 2] });
    before = await Promise.all(queries.map((q) => c1.query('keep', { query: q, limit: 10, with_payload: true, params: { exact: true } })));
    expect(await s1.stop('SIGTERM')).toBe(0);

    const s2 = await start();
    expect((await call(s2.url, 'GET', '/readyz')).status).toBe(200);
    // A clean shutdown saved the HNSW graphs: every shard read them back instead of rebuilding.
    const ready = s2.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((r) => r.msg === 'engine ready')!;
    expect(ready.hnsw_rebuilt_shards).toBe(0);
    expect(ready.hnsw_restored_shards).toBeGreaterThan(0);

    const c2 = new QdrantClient({ url: s2.url });
    expect((await c2.getCollections()).collections.map((c) => c.name).sort()).toEqual(['keep', 'named']);
    const info = await c2.getCollection('keep');
    expect(info.points_count).toBe(N - 3);
    expect(info.config.hnsw_config.m).toBe(8);
    const after = await Promise.all(queries.map((q) => c2.query('keep', { query: q, limit: 10, with_payload: true, params: { exact: true } })));
    expect(after).toEqual(before);
    expect((await c2.retrieve('keep', { ids: [0, 1, 2, 3] })).map((p) => p.id)).toEqual([3]);
    const [named] = await c2.retrieve('named', { ids: ['e3b0c442-98fc-1c14-9afb-f4c8996fb924'], with_vector: true });
    expect(named).toEqual({ id: 'e3b0c442-98fc-1c14-9afb-f4c8996fb924', payload: { x: [1, { y: null }] }, vector: { a: [1, 2] } });
    // HNSW is rebuilt, not just the raw data: default (approximate) search still finds the exact top hit.
    const approx = await c2.query('keep', { query: data[500]!, limit: 1 });
    expect(approx.points[0]!.id).toBe(500);
    // Operation ids keep growing after a restart.
    const r = await c2.upsert('keep', { wait: true, points: [{ id: 0, vector: data[0]! }] });
    expect(r.operation_id).toBeGreaterThan(lastOp);
    await s2.stop('SIGTERM');
  });

  it('keeps acknowledged writes through kill -9: saved graphs read back, unsaved ones rebuilt (412 while loading)', async () => {
    const s3 = await start();
    const c3 = new QdrantClient({ url: s3.url });
    await c3.createCollection('crash', { vectors: { size: 3, distance: 'Euclid' } });
    const acks = [];
    for (let i = 0; i < 20; i++) {
      acks.push(await c3.upsert('crash', { wait: false, points: [{ id: i, vector: [i, i, i], payload: { i } }] }));
    }
    expect(acks.every((a) => a.status === 'acknowledged')).toBe(true);
    await s3.stop('SIGKILL');

    // A slowed load (failpoint): the port is bound at once; until every shard has loaded, data
    // endpoints answer 412 and only the health checks answer.
    const s4 = await start(false, { QUIVER_FAILPOINTS: 'load_delay_ms=3000' });
    const early = await call(s4.url, 'GET', '/collections');
    expect(early.status).toBe(412);
    expect(early.body.status.error).toBe('Engine not initialized');
    expect((await call(s4.url, 'GET', '/')).status).toBe(200);
    expect((await call(s4.url, 'GET', '/readyz')).status).toBe(503);
    await s4.ready;
    const c4 = new QdrantClient({ url: s4.url });
    // 'keep' was saved at the last clean shutdown: its graphs are read back after the kill -9 too.
    // 'crash' (20 writes, fewer than a background save waits for) never was: rebuilt.
    const loaded = s4.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === 'collection loaded');
    expect(loaded.find((r) => r.collection === 'keep')).toMatchObject({ points: N - 2, graphs_loaded: 2, graphs_rebuilt: 0, replayed_writes: 0 });
    const crash = loaded.find((r) => r.collection === 'crash')!;
    expect(crash).toMatchObject({ points: 20, graphs_loaded: 0 });
    expect(crash.graphs_rebuilt).toBeGreaterThan(0);
    expect(crash.rebuild_reasons).toContain('shard 0: no saved graph');
    expect((await c4.count('crash')).count).toBe(20);
    expect((await c4.retrieve('crash', { ids: [19] }))[0]!.payload).toEqual({ i: 19 });
    expect((await c4.count('keep')).count).toBe(N - 2);
  });
});
