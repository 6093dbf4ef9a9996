// wait=true with a `timeout` on writes, through the real server, as Qdrant answers it: a write
// done in time answers `completed`; one that is not (every commit held 2.5 s by the
// commit_delay_ms failpoint) answers `wait_timeout` once the timeout passes, and still completes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ shards: 1, env: { QUIVER_FAILPOINTS: 'commit_delay_ms=2500' } });
  expect((await call(server.url, 'PUT', '/collections/wt', { vectors: { size: 2, distance: 'Dot' } })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('wait with a timeout', () => {
  it('answers wait_timeout once the timeout passes, and the write still completes', async () => {
    const t0 = performance.now();
    const res = await call(server.url, 'PUT', '/collections/wt/points?wait=true&timeout=1', { points: [{ id: 1, vector: [1, 1] }] });
    const ms = performance.now() - t0;
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ operation_id: null, status: 'wait_timeout' });
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2400);
    // The write goes on: the point is there once its commit is through.
    await new Promise((r) => setTimeout(r, 2000));
    const got = await call(server.url, 'POST', '/collections/wt/points', { ids: [1] });
    expect(got.body.result.map((p: { id: number }) => p.id)).toEqual([1]);
  });

  it('answers completed when the write is done within the timeout', async () => {
    const res = await call(server.url, 'POST', '/collections/wt/points/payload?wait=true&timeout=5', { payload: { a: 1 }, points: [1] });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'completed' });
    expect(typeof res.body.result.operation_id).toBe('number');
  });
});
