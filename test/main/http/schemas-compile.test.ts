// Route validators compile at their first use (src/shared/validation.ts), not at start: the first
// bad request of a route still gets Qdrant's status and message, and every schema of every
// registered route compiles (compilePending), so a bad schema fails here rather than at some
// request in production.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePending } from '../../../src/shared/validation.js';
import { inject, startInProcess, type InProcessQuiver } from '../../helpers/in-process.js';

let q: InProcessQuiver;
beforeAll(async () => {
  q = await startInProcess();
});
afterAll(async () => {
  await q.close();
});

describe('lazily compiled route validators', () => {
  it('answer the first bad request of a route with the same status and message as later ones', async () => {
    // The first request this app sees: nothing has compiled the route's checks yet.
    const first = await inject(q.app, 'PUT', '/collections/c1', { vectors: { size: 4, distance: 'Dot' }, hnsw_config: { ef_construct: 0 } });
    expect(first).toMatchObject({ status: 422, body: { status: { error: 'Validation error in JSON body: [hnsw_config.ef_construct: value 0 invalid, must be from 4 to 100000]' } } });
    const again = await inject(q.app, 'PUT', '/collections/c1', { vectors: { size: 4, distance: 'Dot' }, hnsw_config: { ef_construct: 0 } });
    expect(again).toEqual({ status: 422, body: { ...first.body, time: again.body['time'] } });
  });

  it('answer a format error (400) on a route first used with it', async () => {
    const r = await inject(q.app, 'POST', '/collections/c2/points/count', { exact: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body['status']).toEqual({ error: expect.stringMatching(/^Format error in JSON body: body\.exact: /) as unknown });
  });

  it('answer a bad query parameter (400) on a route first used with it', async () => {
    const r = await inject(q.app, 'PUT', '/collections/c3/points?wait=maybe', { points: [] });
    expect(r.status).toBe(400);
    expect(r.body['status']).toEqual({ error: expect.stringMatching(/^Deserialize error in query parameters: wait/) as unknown });
  });

  it('answer a bad body on an auth endpoint with 400 in its own envelope', async () => {
    const r = await q.app.inject({ method: 'POST', url: '/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'admin' }) });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ status: 'error', message: expect.stringContaining('password') as unknown });
  });

  it('all compile: every registered route schema, on demand', () => {
    // Every route of the app built above made its checks; those not used yet compile now.
    expect(compilePending()).toBeGreaterThan(50);
    expect(compilePending()).toBe(0);
  });
});
