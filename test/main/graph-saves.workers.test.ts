// Graph saves and restart, on the real server in a child process over a real LMDB dir:
// - kill -9 in the middle of a concurrent ingest (wait=true and wait=false): every point
//   acknowledged with wait=true is back with its vector and payload, recall@10 is that before the
//   kill, and the log says the graphs were read from disk and how many writes were replayed;
// - a damaged saved graph (bytes flipped, file truncated) is detected and rebuilt, not trusted;
// - saves happen every N writes (visible in /metrics), and a kill -9 replays only the writes after;
// - /readyz answers 503 with the load's progress while shards load (slowed by a failpoint).

import { QdrantClient } from '@qdrant/js-client-rest';
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sample, scrape } from '../helpers/metrics.js';
import { killDuringIngest, loaded, recallAgainstExact as recall, records, restarts } from '../helpers/restarts.js';
import { call, rng } from '../helpers/server.js';

const { start, newDir } = restarts();

const DIM = 16;

/** Points around well separated centres: `centre` picks the cluster, so writes to other clusters leave a query's neighbours alone. */
function clustered(n: number, centres: number[][], seed: number): number[][] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => centres[i % centres.length]!.map((c) => c + (r() - 0.5) * 0.6));
}

function centres(k: number, seed: number, offset: number): number[][] {
  const r = rng(seed);
  return Array.from({ length: k }, () => Array.from({ length: DIM }, () => offset + r() * 20));
}



describe('graph saves and restart', () => {
  it('kill -9 during an ingest: acknowledged points back, same recall, graphs loaded and writes replayed, not rebuilt', async () => {
    const dataDir = newDir();
    const env = { SERVICE_GRAPH_SAVE_WRITES: '1000', SERVICE_GRAPH_SAVE_SECONDS: '0' };
    const s1 = await start(dataDir, env);
    const c1 = new QdrantClient({ url: s1.url });
    await c1.createCollection('k', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2, hnsw_config: { m: 8, ef_construct: 32 } });
    // Phase A: the clusters the queries look at.
    const near = centres(12, 1, 0);
    const first = clustered(4000, near, 2);
    for (let i = 0; i < first.length; i += 500) {
      await c1.upsert('k', { wait: true, points: first.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: v, payload: { i: i + j } })) });
    }
    const queries = clustered(12, near, 3);
    const before = await recall(c1, 'k', queries);

    // Phase B: four writers at once into clusters far away, two waiting for the flush, two not;
    // the server is killed when 30 wait=true batches are acknowledged.
    const far = centres(6, 4, 1000);
    const second = clustered(6000, far, 5);
    const BASE = first.length;
    const acked = await killDuringIngest(s1, c1, 'k', second, BASE);

    const s2 = await start(dataDir, env);
    const c2 = new QdrantClient({ url: s2.url });
    const got = await c2.retrieve('k', { ids: acked, with_payload: true, with_vector: true });
    expect(got.length).toBe(acked.length);
    for (const p of got) {
      const id = Number(p.id);
      expect(p.payload).toMatchObject({ i: id });
      expect((p.vector as number[]).map((x) => Math.fround(x))).toEqual(second[id - BASE]!.map((x) => Math.fround(x)));
    }
    const points = (await c2.count('k', { exact: true })).count;
    expect(points).toBeGreaterThanOrEqual(BASE + acked.length);
    // Graphs read from disk and brought up to date with the writes after their save; no rebuild.
    const log = loaded(s2, 'k')!;
    expect(log).toMatchObject({ shards: 2, points, graphs_loaded: 2, graphs_rebuilt: 0 });
    expect(log.rebuild_reasons).toBeUndefined();
    expect(log.replayed_writes).toBeGreaterThan(0);
    expect(log.replayed_writes).toBeLessThan(points);
    // The phase-B clusters are far from the queries: their exact top 10 is unchanged, and so is recall.
    const after = await recall(c2, 'k', queries);
    expect(after).toBeGreaterThanOrEqual(before - 0.01);
    // Searches reach the replayed points through the graph too.
    const last = acked[acked.length - 1]!;
    expect((await c2.query('k', { query: second[last - BASE]!, limit: 1 })).points[0]!.id).toBe(last);
    await s2.stop('SIGTERM');
  }, 180_000);

  it('a damaged saved graph (bytes flipped, file truncated) is detected and rebuilt, and searches stay right', async () => {
    const dataDir = newDir();
    const s1 = await start(dataDir);
    const c1 = new QdrantClient({ url: s1.url });
    await c1.createCollection('d', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2, hnsw_config: { m: 8, ef_construct: 32 } });
    const data = clustered(3000, centres(8, 6, 0), 7);
    for (let i = 0; i < data.length; i += 1000) {
      await c1.upsert('d', { wait: true, points: data.slice(i, i + 1000).map((v, j) => ({ id: i + j, vector: v })) });
    }
    const queries = clustered(10, centres(8, 6, 0), 8);
    const exactBefore = await Promise.all(queries.map(async (q) => (await c1.query('d', { query: q, limit: 10, params: { exact: true } })).points));
    expect(await s1.stop('SIGTERM')).toBe(0);

    const graphs = readdirSync(join(dataDir, 'hnsw')).filter((f) => f.endsWith('.hnsw')).sort();
    expect(graphs.length).toBe(2);
    const flipped = join(dataDir, 'hnsw', graphs[0]!);
    const bytes = readFileSync(flipped);
    for (let i = 1000; i < 1016; i++) bytes[i] = bytes[i]! ^ 0x5a;
    writeFileSync(flipped, bytes);
    truncateSync(join(dataDir, 'hnsw', graphs[1]!), 4096);

    const s2 = await start(dataDir);
    const log = loaded(s2, 'd')!;
    expect(log).toMatchObject({ points: 3000, graphs_loaded: 0, graphs_rebuilt: 2 });
    const reasons = (log.rebuild_reasons as string[]).join('\n');
    expect(reasons).toContain(`graph file ${graphs[0]} damaged (checksum mismatch)`);
    expect(reasons).toMatch(new RegExp(`graph file ${graphs[1]!.replace('.', '\\.')} damaged \\(size 4096, expected \\d+\\)`));
    const c2 = new QdrantClient({ url: s2.url });
    const exactAfter = await Promise.all(queries.map(async (q) => (await c2.query('d', { query: q, limit: 10, params: { exact: true } })).points));
    expect(exactAfter).toEqual(exactBefore);
    for (const i of [0, 1234, 2999]) expect((await c2.query('d', { query: data[i]!, limit: 1 })).points[0]!.id).toBe(i);
    expect(await recall(c2, 'd', queries)).toBeGreaterThan(0.9);
    // The rebuilt graphs are saved at the next clean shutdown: the start after reads them.
    expect(await s2.stop('SIGTERM')).toBe(0);
    const s3 = await start(dataDir);
    expect(loaded(s3, 'd')).toMatchObject({ graphs_loaded: 2, graphs_rebuilt: 0, replayed_writes: 0 });
    await s3.stop('SIGTERM');
  }, 180_000);

  it('saves every N writes (seen in /metrics); kill -9 then replays exactly the writes after the last save', async () => {
    const dataDir = newDir();
    const env = { SERVICE_GRAPH_SAVE_WRITES: '500', SERVICE_GRAPH_SAVE_SECONDS: '0' };
    const s1 = await start(dataDir, env);
    const c1 = new QdrantClient({ url: s1.url });
    await c1.createCollection('p', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2 });
    const data = clustered(2600, centres(5, 9, 0), 10);
    for (let i = 0; i < data.length; i += 100) {
      await c1.upsert('p', { wait: true, points: data.slice(i, i + 100).map((v, j) => ({ id: i + j, vector: v })) });
    }
    await c1.delete('p', { wait: true, points: [5, 6, 7] });
    // A save may still be finishing its files: read the figures once two scrapes agree.
    let text = await scrape(s1.url);
    for (;;) {
      await new Promise((r) => setTimeout(r, 200));
      const again = await scrape(s1.url);
      const same = ['quiver_graph_saves', 'quiver_graph_unsaved_writes'].every((m) => sample(again, m, { collection: 'p' }) === sample(text, m, { collection: 'p' }));
      text = again;
      if (same) break;
    }
    const saves = sample(text, 'quiver_graph_saves', { collection: 'p' })!;
    const unsaved = sample(text, 'quiver_graph_unsaved_writes', { collection: 'p' })!;
    // 2603 writes over 2 shards, a save every 500 per shard: at least 4 saves, under 1000 writes left.
    expect(saves).toBeGreaterThanOrEqual(4);
    expect(unsaved).toBeLessThan(1000);
    expect(unsaved).toBeGreaterThan(0);
    await s1.stop('SIGKILL');

    const s2 = await start(dataDir, env);
    expect(loaded(s2, 'p')).toMatchObject({ points: 2597, graphs_loaded: 2, graphs_rebuilt: 0, replayed_writes: unsaved });
    const c2 = new QdrantClient({ url: s2.url });
    expect((await c2.count('p', { exact: true })).count).toBe(2597);
    expect((await c2.retrieve('p', { ids: [4, 5, 6, 7, 2599] })).map((p) => p.id)).toEqual([4, 2599]);
    expect((await c2.query('p', { query: data[2599]!, limit: 1 })).points[0]!.id).toBe(2599);
    await s2.stop('SIGTERM');
  }, 180_000);

  it('/readyz answers 503 with the progress while shards load, 412 on data endpoints, then 200', async () => {
    const dataDir = newDir();
    const s1 = await start(dataDir);
    const c1 = new QdrantClient({ url: s1.url });
    await c1.createCollection('r', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 4 });
    const data = clustered(400, centres(3, 11, 0), 12);
    await c1.upsert('r', { wait: true, points: data.map((v, i) => ({ id: i, vector: v })) });
    await s1.stop('SIGTERM');

    const s2 = await start(dataDir, { QUIVER_FAILPOINTS: 'load_delay_ms=2500' }, false);
    const seen: string[] = [];
    let ready = false;
    void s2.ready.then(() => (ready = true));
    while (!ready) {
      const r = await call(s2.url, 'GET', '/readyz');
      if (r.status === 200) break;
      expect(r.status).toBe(503);
      seen.push(String(r.body));
      const early = await call(s2.url, 'GET', '/collections');
      if (!ready && early.status !== 200) expect(early.body.status.error).toBe('Engine not initialized');
      await new Promise((res) => setTimeout(res, 100));
    }
    await s2.ready;
    expect(seen.length).toBeGreaterThan(0);
    for (const m of seen) expect(m).toMatch(/^some shards are not ready(: loading shards, \d+\/(\d+|\?) shards loaded, \d+ points read)?$/);
    // Each worker sleeps before each of its two shards: between them the progress shows shards loaded and points read.
    expect(seen.some((m) => /, [1-3]\/4 shards loaded, [1-9]\d* points read$/.test(m))).toBe(true);
    const r = await call(s2.url, 'GET', '/readyz');
    expect(r).toMatchObject({ status: 200, body: 'all shards are ready' });
    expect(loaded(s2, 'r')).toMatchObject({ shards: 4, points: 400, graphs_loaded: 4, replayed_writes: 0 });
    // One start-up line says where the time went: the main thread's and each worker's marks
    // ([name, ms since the process started, CPU ms]) and each shard's load parts ([wall, CPU] ms).
    const startup = records(s2).find((r) => r.msg === 'start-up')!;
    const main = startup.main as [string, number, number | null][];
    expect(main.map((m) => m[0])).toEqual(['config loaded', 'workers spawned', 'modules loaded', 'lmdb opened', 'auth opened', 'routes built', 'rest listening', 'grpc listening', 'shards ready']);
    for (let i = 1; i < main.length; i++) expect(main[i]![1]).toBeGreaterThanOrEqual(main[i - 1]![1]);
    expect(startup.ready_ms).toBeGreaterThanOrEqual(main.at(-1)![1]);
    const workers = startup.workers as [string, number, number | null][][];
    expect(workers.map((w) => w.map((m) => m[0]))).toEqual(Array(2).fill(['modules loaded', 'hnswlib loaded', 'lmdb opened', 'shards loaded']));
    // The slowed load (2.5 s per shard, counted from REST listening) shows in the workers' marks.
    for (const w of workers) expect(w.at(-1)![1]).toBeGreaterThan(main[6]![1] + 2 * 2500 - 100);
    const shards = startup.shards as Record<string, unknown>[];
    expect(shards).toHaveLength(4);
    for (const sh of shards) {
      expect(sh).toMatchObject({ collection: expect.any(Number), shard: expect.any(Number), worker: expect.any(Number) });
      for (const part of ['manifest', 'checksum', 'records', 'graphs']) expect(sh[part]).toEqual([expect.any(Number), expect.any(Number)]);
    }
    expect(shards.map((sh) => sh.shard).sort()).toEqual([0, 1, 2, 3]);
    await s2.stop('SIGTERM');
  }, 180_000);
});
