// docs/interface.md section 7.3, rule 1: a batch upsert can partly succeed before a 500. With a failpoint that breaks
// every shard's part after its third point, the answer says how many points were applied, and
// the data agrees: each point is either fully written (vector and payload) or absent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ shards: 2, env: { QUIVER_FAILPOINTS: 'upsert_after=3' } });
  await call(server.url, 'PUT', '/collections/p', { vectors: { size: 2, distance: 'Euclid' }, shard_number: 2 });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('a batch upsert that fails half-way', () => {
  it('answers 500 saying how many points were applied, and exactly those points exist, whole', async () => {
    const points = Array.from({ length: 20 }, (_, i) => ({ id: i, vector: [i, -i], payload: { i } }));
    const r = await call(server.url, 'PUT', '/collections/p/points?wait=true', { points });
    expect(r.status).toBe(500);
    const m = /(\d+) of 20 points were applied/.exec(r.body.status.error as string);
    expect(m, r.body.status.error).not.toBeNull();
    const applied = Number(m![1]);
    // Two shards, each stopping after three points.
    expect(applied).toBe(6);

    const count = await call(server.url, 'POST', '/collections/p/points/count', {});
    expect(count.body.result.count).toBe(applied);
    const got = await call(server.url, 'POST', '/collections/p/points', { ids: points.map((p) => p.id), with_vector: true });
    expect(got.body.result).toHaveLength(applied);
    for (const p of got.body.result as { id: number; vector: number[]; payload: { i: number } }[]) {
      expect(p.vector).toEqual([p.id, p.id === 0 ? 0 : -p.id]);
      expect(p.payload).toEqual({ i: p.id });
    }
    // The server is still healthy and a small batch (under the failpoint) goes through.
    const small = await call(server.url, 'PUT', '/collections/p/points?wait=true', { points: [{ id: 100, vector: [1, 1] }] });
    expect(small.status).toBe(200);
  });
});
