// Memory on show (issue 14) through a real server: each collection's estimated memory by kind in
// GET /collections/{name} (a Quiver field the official clients pass over), as a /metrics gauge per
// collection and kind, and summed per process in GET /telemetry beside the process's RssAnon and
// each thread's V8 heap; the
// figures grow with the data and follow where the vectors live (a graph, or a store without one).

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample, scrape } from '../helpers/metrics.js';
import { call, randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';
import { mallocTrim } from '../../src/shared/malloc-trim.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ shards: 2 });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

interface Memory {
  vectors: number;
  graph: number;
  payload_index: number;
  ids: number;
  total: number;
}

async function memoryOf(name: string): Promise<Memory> {
  const r = await call(server.url, 'GET', `/collections/${name}`);
  expect(r.status).toBe(200);
  return (r.body as { result: { memory: Memory } }).result.memory;
}

async function upsert(name: string, from: number, n: number, dim: number, payload = false): Promise<void> {
  const vectors = randomVectors(n, dim, from + 1);
  const points = vectors.map((vector, i) => ({ id: from + i, vector, ...(payload ? { payload: { tag: `t${(from + i) % 50}`, n: from + i } } : {}) }));
  const r = await call(server.url, 'PUT', `/collections/${name}/points?wait=true`, { points });
  expect(r.status).toBe(200);
}

describe('collection memory', () => {
  it('GET /collections/{name} reports memory by kind with its total; it grows with the points', async () => {
    await call(server.url, 'PUT', '/collections/mem', { vectors: { size: 32, distance: 'Cosine' } });
    const empty = await memoryOf('mem');
    expect(Object.keys(empty).sort()).toEqual(['graph', 'ids', 'payload_index', 'total', 'vectors']);
    expect(empty.total).toBe(empty.vectors + empty.graph + empty.payload_index + empty.ids);
    expect(empty.payload_index).toBe(0);

    await upsert('mem', 0, 3000, 32);
    const full = await memoryOf('mem');
    // The graph holds the vectors (their one in-memory copy): at least the raw float32 bytes.
    expect(full.graph).toBeGreaterThan(empty.graph + 3000 * 32 * 4);
    expect(full.ids).toBeGreaterThan(empty.ids);
    // No SharedArrayBuffer copy beside the graph: only presence bytes count as vectors.
    expect(full.vectors).toBeLessThan(3000 * 32 * 4 * 0.1);
    expect(full.total).toBe(full.vectors + full.graph + full.payload_index + full.ids);
  });

  it('a payload index shows as payload_index; a Manhattan vector (no graph) as vectors', async () => {
    await call(server.url, 'PUT', '/collections/mem_idx', { vectors: { size: 8, distance: 'Manhattan' } });
    await upsert('mem_idx', 0, 500, 8, true);
    expect((await call(server.url, 'PUT', '/collections/mem_idx/index?wait=true', { field_name: 'tag', field_schema: 'keyword' })).status).toBe(200);
    const m = await memoryOf('mem_idx');
    expect(m.payload_index).toBeGreaterThan(0);
    expect(m.graph).toBe(0);
    expect(m.vectors).toBeGreaterThanOrEqual(500 * 8 * 4);
    await upsert('mem_idx', 500, 500, 8, true);
    const more = await memoryOf('mem_idx');
    expect(more.payload_index).toBeGreaterThan(m.payload_index);
    expect(more.vectors).toBeGreaterThan(m.vectors);
  });

  it('the official JS client reads the collection info unchanged', async () => {
    const client = new QdrantClient({ url: server.url, checkCompatibility: false });
    const info = await client.getCollection('mem');
    expect(info.points_count).toBe(3000);
    expect(info.status).toBe('green');
  });

  it('/metrics serves quiver_collection_memory_bytes per collection and kind, and the process RssAnon', async () => {
    const text = await scrape(server.url);
    const m = await memoryOf('mem');
    for (const kind of ['vectors', 'graph', 'payload_index', 'ids'] as const) {
      expect(sample(text, 'quiver_collection_memory_bytes', { collection: 'mem', kind })).toBe(m[kind]);
    }
    expect(sample(text, 'quiver_collection_memory_bytes', { collection: 'mem_idx', kind: 'payload_index' })).toBeGreaterThan(0);
    expect(sample(text, 'quiver_process_rss_anon_bytes')).toBeGreaterThan(0);
  });

  it('GET /telemetry sums the collections per kind and reports the process RssAnon', async () => {
    const r = await call(server.url, 'GET', '/telemetry');
    expect(r.status).toBe(200);
    const t = (r.body as { result: { collections: { number_of_collections: number }; process_memory: { rss_anon_bytes: number; rss_bytes: number; collections: Memory } } }).result;
    const a = await memoryOf('mem');
    const b = await memoryOf('mem_idx');
    expect(t.collections.number_of_collections).toBe(2);
    expect(t.process_memory.collections).toEqual({
      vectors: a.vectors + b.vectors,
      graph: a.graph + b.graph,
      payload_index: a.payload_index + b.payload_index,
      ids: a.ids + b.ids,
      total: a.total + b.total,
    });
    expect(t.process_memory.rss_anon_bytes).toBeGreaterThan(0);
    expect(t.process_memory.rss_bytes).toBeGreaterThanOrEqual(t.process_memory.rss_anon_bytes);
    // The estimates cover part of what the process holds, never more than all of it.
    expect(t.process_memory.collections.total).toBeLessThan(t.process_memory.rss_anon_bytes);
  });

  it('GET /telemetry lists the JavaScript heap of the main thread and of every worker', async () => {
    const r = await call(server.url, 'GET', '/telemetry');
    const threads = (r.body as { result: { process_memory: { rss_anon_bytes: number; threads: Record<string, unknown>[] } } }).result.process_memory.threads;
    // Two workers (shards: 2), each answering for its own isolate.
    expect(threads.map((t) => t.thread)).toEqual(['main', 'worker 0', 'worker 1']);
    for (const t of threads) {
      expect(Object.keys(t).sort()).toEqual(['array_buffers_bytes', 'external_bytes', 'heap_total_bytes', 'heap_used_bytes', 'thread']);
      const total = t.heap_total_bytes as number;
      expect(total).toBeGreaterThan(0);
      expect(t.heap_used_bytes as number).toBeGreaterThan(0);
      expect(t.heap_used_bytes as number).toBeLessThanOrEqual(total);
      expect(t.array_buffers_bytes as number).toBeGreaterThanOrEqual(0);
    }
    // The server loads the malloc_trim addon from the same place as this process does.
    expect((r.body as { result: { process_memory: { malloc_trim: boolean } } }).result.process_memory.malloc_trim).toBe(mallocTrim !== null);
  });

  it('a dropped collection leaves the gauge and the sums', async () => {
    expect((await call(server.url, 'DELETE', '/collections/mem_idx')).status).toBe(200);
    const text = await scrape(server.url);
    expect(sample(text, 'quiver_collection_memory_bytes', { collection: 'mem_idx', kind: 'graph' })).toBeUndefined();
    const t = (await call(server.url, 'GET', '/telemetry')).body as { result: { process_memory: { collections: Memory } } };
    expect(t.result.process_memory.collections).toEqual(await memoryOf('mem'));
  });
});
