// A write LMDB does not commit (disk full, I/O error) must not leave the worker serving data that
// is not on disk. The commit_fail_on_id failpoint fails the write of one point as a failed commit
// would: the request answers 500 saying the write was not committed, the worker ends its thread,
// and the new thread serves what LMDB holds, so the point is absent rather than readable until
// the next restart loses it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape, workerRestarts } from '../helpers/metrics.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const FAIL_ID = 13;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ shards: 2, env: { QUIVER_FAILPOINTS: `commit_fail_on_id=${FAIL_ID}` } });
  await call(server.url, 'PUT', '/collections/c', { vectors: { size: 2, distance: 'Dot' } });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const restarts = async () => workerRestarts(await scrape(server.url));

describe('a write whose commit fails', () => {
  it.each([true, false])('answers 500 and leaves nothing readable that is not on disk (wait=%s)', async (wait) => {
    const id = wait ? 1000 : 2000;
    const base = Array.from({ length: 20 }, (_, i) => ({ id: id + i, vector: [1, i], payload: { i } }));
    expect((await call(server.url, 'PUT', `/collections/c/points?wait=true`, { points: base })).status).toBe(200);
    const before = await restarts();

    const r = await call(server.url, 'PUT', `/collections/c/points?wait=${String(wait)}`, { points: [{ id: FAIL_ID, vector: [5, 5], payload: { bad: true } }] });
    expect(r.status).toBe(500);
    expect(r.body.status.error).toContain(`Write was not committed: failpoint commit_fail_on_id=${FAIL_ID}`);

    // The thread that held the uncommitted point is replaced; the point is gone, the rest is there.
    await expect.poll(restarts, { timeout: 10_000 }).toBe(before + 1);
    const got = await call(server.url, 'POST', '/collections/c/points', { ids: [FAIL_ID, id, id + 19] });
    expect(got.status).toBe(200);
    expect(got.body.result.map((p: { id: number }) => p.id).sort()).toEqual([id, id + 19]);
    const near = await call(server.url, 'POST', '/collections/c/points/search', { vector: [1, 1], limit: 3 });
    expect(near.body.result.map((p: { id: number }) => p.id)).not.toContain(FAIL_ID);
    expect(server.proc.exitCode).toBeNull();
  });
});
