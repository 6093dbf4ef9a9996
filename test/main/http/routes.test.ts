// REST routes in process: buildApp over the InProcessDispatcher, requests sent with
// app.inject (no socket, no worker thread). Status codes and the {result, status, time, usage}
// envelope, a validation error, 404s, and a write-then-read round trip.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject, startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

let q: InProcessQuiver;

beforeAll(async () => {
  q = await startInProcess();
});
afterAll(async () => {
  await q.close();
});

function expectOk(res: { status: number; body: Record<string, unknown> }): unknown {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['result', 'status', 'time', 'usage']);
  expect(res.body.status).toBe('ok');
  expect(res.body.usage).toBeNull();
  expect(typeof res.body.time).toBe('number');
  return res.body.result;
}

function expectError(res: { status: number; body: Record<string, unknown> }, status: number, part: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['status', 'time']);
  const error = (res.body.status as { error?: unknown }).error;
  expect(typeof error).toBe('string');
  expect(error as string).toContain(part);
}

describe('REST routes over the in-process engine', () => {
  it('health answers before any collection exists', async () => {
    const res = await q.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
  });

  it('create, upsert, search, get: status and envelope', async () => {
    expect(expectOk(await inject(q.app, 'PUT', '/collections/r', { vectors: { size: 2, distance: 'Dot' } }))).toBe(true);
    const points = [1, 2, 3].map((id) => ({ id, vector: [id, 1], payload: { id } }));
    expect(expectOk(await inject(q.app, 'PUT', '/collections/r/points?wait=true', { points }))).toMatchObject({ status: 'completed' });
    const hits = expectOk(await inject(q.app, 'POST', '/collections/r/points/search', { vector: [1, 0], limit: 2 })) as { id: number }[];
    expect(hits.map((h) => h.id)).toEqual([3, 2]);
    const point = expectOk(await inject(q.app, 'GET', '/collections/r/points/2')) as { id: number; payload: unknown };
    expect(point).toMatchObject({ id: 2, payload: { id: 2 } });
    const list = expectOk(await inject(q.app, 'GET', '/collections')) as { collections: { name: string }[] };
    expect(list.collections.map((c) => c.name)).toContain('r');
  });

  it('query and count through their routes', async () => {
    const res = expectOk(await inject(q.app, 'POST', '/collections/r/points/query', { query: [1, 0], limit: 1 })) as { points: { id: number }[] };
    expect(res.points.map((p) => p.id)).toEqual([3]);
    expect(expectOk(await inject(q.app, 'POST', '/collections/r/points/count', { exact: true }))).toEqual({ count: 3 });
  });

  it('a value the schema refuses is a 422 envelope naming the field', async () => {
    expectError(await inject(q.app, 'PUT', '/collections/bad', { vectors: { size: 0, distance: 'Dot' } }), 422, 'vectors.size');
  });

  it('a missing collection, point or route is a 404 envelope', async () => {
    expectError(await inject(q.app, 'GET', '/collections/missing'), 404, 'Collection not found: missing');
    expectError(await inject(q.app, 'GET', '/collections/r/points/999'), 404, '999');
    expectError(await inject(q.app, 'GET', '/no/such/route'), 404, '/no/such/route');
  });
});
