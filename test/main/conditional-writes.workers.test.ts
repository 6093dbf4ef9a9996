// Conditional writes, as Qdrant 1.19 clients send them: upsert `update_mode` (insert_only,
// update_only) and `update_filter` (an existing point is rewritten only if it matches; new points
// are inserted regardless), and `update_filter` on vector updates. Through REST and gRPC.

import { QdrantClient } from '@qdrant/js-client-rest';
import { UpdateMode } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, id, payload, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function fresh(name: string): Promise<void> {
  await client.createCollection(name, { vectors: { size: 2, distance: 'Dot' } });
  await client.upsert(name, { wait: true, points: [{ id: 1, vector: [1, 0], payload: { v: 1 } }, { id: 2, vector: [2, 0], payload: { v: 5 } }] });
}

async function state(name: string): Promise<Record<number, { v: unknown; vector: unknown }>> {
  const { points } = await client.scroll(name, { limit: 100, with_payload: true, with_vector: true });
  return Object.fromEntries(points.map((p) => [Number(p.id), { v: p.payload?.v, vector: p.vector }]));
}

describe('upsert update_mode', () => {
  it('insert_only leaves existing points and inserts new ones', async () => {
    await fresh('ins');
    await client.upsert('ins', { wait: true, update_mode: 'insert_only', points: [{ id: 2, vector: [0, 2], payload: { v: 2 } }, { id: 3, vector: [0, 3], payload: { v: 2 } }] });
    expect(await state('ins')).toEqual({ 1: { v: 1, vector: [1, 0] }, 2: { v: 5, vector: [2, 0] }, 3: { v: 2, vector: [0, 3] } });
  });

  it('update_only rewrites existing points and inserts nothing', async () => {
    await fresh('upd');
    await client.upsert('upd', { wait: true, update_mode: 'update_only', points: [{ id: 2, vector: [0, 2], payload: { v: 3 } }, { id: 4, vector: [0, 4], payload: { v: 3 } }] });
    expect(await state('upd')).toEqual({ 1: { v: 1, vector: [1, 0] }, 2: { v: 3, vector: [0, 2] } });
  });

  it('upsert (the default) does both', async () => {
    await fresh('ups');
    await client.upsert('ups', { wait: true, update_mode: 'upsert', points: [{ id: 2, vector: [0, 2], payload: { v: 3 } }, { id: 4, vector: [0, 4], payload: { v: 3 } }] });
    expect(Object.keys(await state('ups'))).toEqual(['1', '2', '4']);
  });
});

describe('update_filter', () => {
  it('rewrites only the existing points that match, and inserts new ones regardless', async () => {
    await fresh('flt');
    await client.upsert('flt', {
      wait: true,
      update_filter: { must: [{ key: 'v', range: { lt: 2 } }] },
      points: [1, 2, 5].map((i) => ({ id: i, vector: [i, i], payload: { v: 10 } })),
    });
    expect(await state('flt')).toEqual({ 1: { v: 10, vector: [1, 1] }, 2: { v: 5, vector: [2, 0] }, 5: { v: 10, vector: [5, 5] } });
  });

  it('limits vector updates to the matching points', async () => {
    await fresh('vec');
    // (js-client-rest 1.19's updateVectors drops update_filter, so the body goes by hand.)
    const r = await call(server.url, 'PUT', '/collections/vec/points/vectors?wait=true', {
      update_filter: { must: [{ key: 'v', match: { value: 5 } }] },
      points: [{ id: 1, vector: [9, 9] }, { id: 2, vector: [8, 8] }],
    });
    expect(r.status).toBe(200);
    expect(await state('vec')).toEqual({ 1: { v: 1, vector: [1, 0] }, 2: { v: 5, vector: [8, 8] } });
  });

  it('refuses a bad mode or filter with 400', async () => {
    await fresh('bad');
    const mode = await call(server.url, 'PUT', '/collections/bad/points', { update_mode: 'sometimes', points: [{ id: 1, vector: [1, 1] }] });
    expect(mode.status).toBe(400);
    expect(mode.body.status.error).toMatch(/^Format error in JSON body: body\.update_mode/);
    const filter = await call(server.url, 'PUT', '/collections/bad/points', { update_filter: { must: [{ key: 'v', rnge: {} }] }, points: [{ id: 1, vector: [1, 1] }] });
    expect(filter.status).toBe(400);
    expect(filter.body.status.error).toMatch(/^Bad filter: filter\.must\[0\]\.rnge/);
    expect((await state('bad'))[1]).toEqual({ v: 1, vector: [1, 0] });
  });
});

describe('over gRPC', () => {
  it('takes update_mode and update_filter as REST does', async () => {
    await fresh('g');
    const g = grpcClient(server);
    await g.api('points').upsert({
      collectionName: 'g',
      wait: true,
      updateMode: UpdateMode.InsertOnly,
      points: [2, 3].map((i) => ({ id: id(i), vectors: vectors([0, i]), payload: payload({ v: 20 }) })),
    });
    await g.api('points').upsert({
      collectionName: 'g',
      wait: true,
      updateFilter: { must: [{ conditionOneOf: { case: 'field', value: { key: 'v', range: { gte: 20 } } } }] },
      points: [1, 3].map((i) => ({ id: id(i), vectors: vectors([i, i]), payload: payload({ v: 30 }) })),
    });
    expect(await state('g')).toEqual({ 1: { v: 1, vector: [1, 0] }, 2: { v: 5, vector: [2, 0] }, 3: { v: 30, vector: [3, 3] } });
  });
});
