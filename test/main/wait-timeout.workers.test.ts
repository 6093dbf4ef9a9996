// A request's `timeout`, through the real server over REST and gRPC, as Qdrant answers it. Writes
// with wait=true: done in time, `completed`; not (every commit held 2.5 s by the commit_delay_ms
// failpoint), `wait_timeout` once the timeout passes, and the write still completes; a batch
// answers per operation. Reads (every shard search and count held 1.5 s by read_delay_ms): past
// their timeout, a 408 (gRPC DEADLINE_EXCEEDED) in Qdrant's wording.

import { QdrantClient as GrpcClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let grpc: GrpcClient;

beforeAll(async () => {
  server = await startServer({ shards: 1, env: { QUIVER_FAILPOINTS: 'commit_delay_ms=2500,read_delay_ms=1500' } });
  grpc = grpcClient(server);
  expect((await call(server.url, 'PUT', '/collections/wt', { vectors: { size: 2, distance: 'Dot' } })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('request timeouts', () => {
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

  it('over gRPC: wait with a timeout answers WaitTimeout, without an operation id', async () => {
    const res = await grpc.api('points').upsert({ collectionName: 'wt', wait: true, timeout: 1n, points: [{ id: { pointIdOptions: { case: 'num', value: 2n } }, vectors: vectors([1, 2]), payload: {} }] });
    expect(res.result?.status).toBe(4); // UpdateStatus.WaitTimeout
    expect(res.result?.operationId).toBeUndefined();
    const slow = await grpc.api('points').setPayload({ collectionName: 'wt', wait: true, timeout: 5n, payload: {}, pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [{ pointIdOptions: { case: 'num', value: 1n } }] } } } });
    expect(slow.result?.status).toBe(2); // Completed
  });

  it('a batch answers the operations done in time and wait_timeout for the rest, which still apply in order', async () => {
    const ops = [{ upsert: { points: [{ id: 3, vector: [1, 3] }] } }, { set_payload: { payload: { b: 2 }, points: [3] } }];
    const res = await call(server.url, 'POST', '/collections/wt/points/batch?wait=true&timeout=4', { operations: ops });
    expect(res.status).toBe(200);
    expect(res.body.result[0]).toMatchObject({ status: 'completed' });
    expect(res.body.result[1]).toEqual({ operation_id: null, status: 'wait_timeout' });
    await new Promise((r) => setTimeout(r, 2500));
    const got = await call(server.url, 'POST', '/collections/wt/points', { ids: [3], with_payload: true });
    expect(got.body.result[0].payload).toEqual({ b: 2 });
  });

  it('a read past its timeout is a 408 (gRPC DEADLINE_EXCEEDED); without one, it is answered', async () => {
    const t0 = performance.now();
    const res = await call(server.url, 'POST', '/collections/wt/points/query?timeout=1', { query: [1, 1], limit: 1 });
    expect(performance.now() - t0).toBeLessThan(1450);
    expect(res.status).toBe(408);
    expect(res.body.status.error).toBe("Timeout: Timeout error: Operation 'Search' timed out after 1s");
    const count = await call(server.url, 'POST', '/collections/wt/points/count?timeout=1', {});
    expect(count.status).toBe(408);
    expect(count.body.status.error).toBe("Timeout: Timeout error: Operation 'count' timed out after 1s");
    expect((await call(server.url, 'POST', '/collections/wt/points/query?timeout=3', { query: [1, 1], limit: 1 })).status).toBe(200);
    expect((await call(server.url, 'POST', '/collections/wt/points/query', { query: [1, 1], limit: 1 })).status).toBe(200);
    const err = await failure(grpc.api('points').query({ collectionName: 'wt', limit: 1n, timeout: 1n, query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [1, 1] } } } } } }));
    expect(err.code).toBe(4);
    expect(err.message).toBe("Timeout: Timeout error: Operation 'Search' timed out after 1s");
  });

  it('refuses a read timeout that is not a whole number of seconds, 1 or more, as a write timeout is refused', async () => {
    // As a write's timeout is checked: a value out of range is a 422, one of the wrong type a 400.
    const zero = await call(server.url, 'POST', '/collections/wt/points/query?timeout=0', { query: [1, 1] });
    expect(zero.status).toBe(422);
    expect(zero.body.status.error).toBe('Validation error in query parameters: [timeout: value 0 invalid, must be 1 or larger]');
    const word = await call(server.url, 'POST', '/collections/wt/points/scroll?timeout=soon', {});
    expect(word.status).toBe(400);
    expect(word.body.status.error).toBe('Deserialize error in query parameters: timeout: must be integer');
  });
});
