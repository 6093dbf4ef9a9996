// docs/decisions.md section 6: a crashed worker is replaced and its shards reloaded while the others keep serving.
// The crash_on_id failpoint kills the worker thread that receives an upsert of that point id,
// before it applies anything; the process lives on, the write that hit the crash answers 503,
// and every acknowledged point, payload index and write path is back once the new thread loads.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/shared/placement.js';
import { scrape, workerRestarts } from '../helpers/metrics.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const CRASH_ID = 7;
const N = 300;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ shards: 2, env: { QUIVER_FAILPOINTS: `crash_on_id=${CRASH_ID}` } });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const vector = (i: number) => [1, (i % 17) / 17, (i % 5) / 5, i / N];

describe('a worker thread that dies', () => {
  it('is replaced, reloads its shards from LMDB, and the server goes on serving', async () => {
    expect((await call(server.url, 'PUT', '/collections/c', { vectors: { size: 4, distance: 'Cosine' }, shard_number: 2 })).status).toBe(200);
    expect((await call(server.url, 'PUT', '/collections/c/index?wait=true', { field_name: 'i', field_schema: 'integer' })).status).toBe(200);
    const ids = Array.from({ length: N }, (_, i) => i).filter((i) => i !== CRASH_ID);
    const up = await call(server.url, 'PUT', '/collections/c/points?wait=true', { points: ids.map((i) => ({ id: i, vector: vector(i), payload: { i } })) });
    expect(up.status).toBe(200);

    const crash = await call(server.url, 'PUT', '/collections/c/points?wait=true', { points: [{ id: CRASH_ID, vector: vector(CRASH_ID), payload: { i: CRASH_ID } }] });
    expect(crash.status).toBe(503);
    // The thread's own error when it coordinated the write itself; its channel closing when a
    // sibling coordinated (which one does is the coordinator choice's: handoff.workers.test.ts),
    // or the replacement's channel reaching the sibling before the old one's close.
    expect(crash.body.status.error).toMatch(/^Worker \d failed: (.*failpoint crash_on_id=7|its thread (ended|was replaced) while serving this request)/);

    // Same process: the failure was logged and the REST port still answers.
    expect(server.proc.exitCode).toBeNull();
    // (The log line travels through the child's stdout, so it may land after the response.)
    await expect.poll(() => server.logs.some((l) => l.includes('shard worker ended')), { timeout: 5_000 }).toBe(true);
    expect(workerRestarts(await scrape(server.url))).toBe(1);

    // Everything acknowledged before the crash is there, through the payload index too.
    const count = await call(server.url, 'POST', '/collections/c/points/count', { exact: true });
    expect(count.body.result.count).toBe(N - 1);
    const ranged = await call(server.url, 'POST', '/collections/c/points/count', { exact: true, filter: { must: [{ key: 'i', range: { lt: 100 } }] } });
    expect(ranged.body.result.count).toBe(99);
    const info = await call(server.url, 'GET', '/collections/c');
    expect(info.body.result.payload_schema.i.points).toBe(N - 1);
    const near = await call(server.url, 'POST', '/collections/c/points/search', { vector: vector(42), limit: 1, params: { exact: true } });
    expect(near.body.result[0].id).toBe(42);
    const hnsw = await call(server.url, 'POST', '/collections/c/points/search', { vector: vector(42), limit: 5 });
    expect(hnsw.body.result.map((p: { id: number }) => p.id)).toContain(42);

    // Writes reach both workers again, the replaced one included.
    // (Two shards on two workers: the crashed point's shard is the replaced worker's.)
    const onCrashed = ids.find((i) => shardOf(i, 2) === shardOf(CRASH_ID, 2))!;
    const again = await call(server.url, 'PUT', '/collections/c/points?wait=true', {
      points: [
        { id: onCrashed, vector: vector(onCrashed), payload: { i: onCrashed, again: true } },
        { id: N, vector: vector(N), payload: { i: N } },
      ],
    });
    expect(again.status).toBe(200);
    const got = await call(server.url, 'POST', '/collections/c/points', { ids: [onCrashed, N] });
    expect(got.body.result).toHaveLength(2);
    expect(got.body.result.find((p: { id: number }) => p.id === onCrashed).payload).toEqual({ i: onCrashed, again: true });
  });
});
