// Answers Qdrant 1.19 gives that Quiver now gives alike, through the real server, the official
// clients and fetch: collection metadata (create, PATCH merge, REST and gRPC), the slice filter
// condition (a partition of the ids, REST and gRPC, with its validation), and the last
// conformance gaps: a key with nothing to check (422), an update of no vectors (422), an update
// of an unknown point (404), `a.b` not entering an array `a` (`a[].b` does), and match any on a
// full-text-indexed key compared with the whole value.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, idOf, value } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';
import { inSlice } from '../../src/shared/point-slice.js';

let server: TestServer;
let client: QdrantClient;

const N = 60;
const UUID = '550e8400-e29b-41d4-a716-446655440000';
const ids: (number | string)[] = [...Array.from({ length: N }, (_, i) => i + 1), UUID];

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('cf', { vectors: { size: 2, distance: 'Dot' }, shard_number: 2, metadata: { owner: 'team-a', tier: { level: 1 } } });
  await client.upsert('cf', {
    wait: true,
    points: ids.map((id, i) => ({ id, vector: [1, i], payload: { arr: [{ b: i % 3 }, { b: 10 }], obj: { b: i % 3 }, t: i === 0 ? 'hello world' : 'other' } })),
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const post = (path: string, body: unknown) => call(server.url, 'POST', path, body);
const countOf = async (filter: unknown): Promise<number> => {
  const r = await post('/collections/cf/points/count', { filter, exact: true });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result.count;
};

describe('collection metadata', () => {
  it('is kept on create and merged by PATCH: keys replaced, null removes one', async () => {
    expect((await client.getCollection('cf')).config.metadata).toEqual({ owner: 'team-a', tier: { level: 1 } });
    await client.updateCollection('cf', { metadata: { tier: { name: 'gold' }, region: 'eu' } });
    expect((await client.getCollection('cf')).config.metadata).toEqual({ owner: 'team-a', tier: { name: 'gold' }, region: 'eu' });
    await client.updateCollection('cf', { metadata: { owner: null } as never });
    expect((await client.getCollection('cf')).config.metadata).toEqual({ tier: { name: 'gold' }, region: 'eu' });
    // A PATCH without metadata leaves it.
    await client.updateCollection('cf', { optimizers_config: { indexing_threshold: 20000 } });
    expect((await client.getCollection('cf')).config.metadata).toEqual({ tier: { name: 'gold' }, region: 'eu' });
    const bad = await call(server.url, 'PATCH', '/collections/cf', { metadata: [1, 2] });
    expect(bad.status).toBe(400);
  });

  it('over gRPC: given on create, merged on update, returned in the collection info', async () => {
    const g = grpcClient(server);
    await g.api('collections').create({
      collectionName: 'gmeta',
      vectorsConfig: { config: { case: 'params', value: { size: 2n, distance: 1 } } },
      metadata: { team: value('search'), n: value(3) },
    });
    await g.api('collections').update({ collectionName: 'gmeta', metadata: { n: value(4), extra: value(true) } });
    const info = await call(server.url, 'GET', '/collections/gmeta');
    expect(info.body.result.config.metadata).toEqual({ team: 'search', n: 4, extra: true });
    const got = (await g.api('collections').get({ collectionName: 'gmeta' })).result!;
    expect(Object.keys(got.config!.metadata).sort()).toEqual(['extra', 'n', 'team']);
  });
});

describe('the slice condition', () => {
  it('partitions the points by id as Qdrant does, in filters of count, scroll and query', async () => {
    const counts = [];
    for (let index = 0; index < 4; index++) {
      const want = ids.filter((id) => inSlice(id, 4, index));
      counts.push(await countOf({ must: [{ slice: { total: 4, index } }] }));
      const page = await client.scroll('cf', { filter: { must: [{ slice: { total: 4, index } }] } as never, limit: 100 });
      expect(page.points.map((p) => p.id).sort()).toEqual([...want].sort());
    }
    expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    expect(counts.every((c) => c > 0)).toBe(true);
    // must_not takes the complement; slice 0 of 4 lies inside slice 0 of 2.
    expect(await countOf({ must_not: [{ slice: { total: 4, index: 1 } }] })).toBe(ids.length - counts[1]!);
    expect(await countOf({ must: [{ slice: { total: 4, index: 0 } }, { slice: { total: 2, index: 0 } }] })).toBe(counts[0]);
    const q = await client.query('cf', { query: [1, 1], limit: 100, filter: { must: [{ slice: { total: 4, index: 2 } }] } as never });
    expect(q.points.map((p) => p.id).sort()).toEqual(ids.filter((id) => inSlice(id, 4, 2)).sort());
  });

  it('over gRPC', async () => {
    const g = grpcClient(server);
    const res = await g.api('points').count({ collectionName: 'cf', exact: true, filter: { must: [{ conditionOneOf: { case: 'slice', value: { total: 3, index: 1 } } }] } as never });
    expect(Number(res.result!.count)).toBe(ids.filter((id) => inSlice(id, 3, 1)).length);
    const page = await g.api('points').scroll({ collectionName: 'cf', limit: 100, filter: { must: [{ conditionOneOf: { case: 'slice', value: { total: 3, index: 1 } } }] } as never });
    expect(page.result.map(idOf).length).toBe(ids.filter((id) => inSlice(id, 3, 1)).length);
  });

  it('refuses an index outside the total (422) and a total of 0 (400)', async () => {
    let r = await post('/collections/cf/points/count', { filter: { must: [{ slice: { total: 4, index: 4 } }] } });
    expect(r.status).toBe(422);
    expect(r.body.status.error).toMatch(/^Validation error in JSON body: \[filter\.must\[0\]\.slice\.index: index 4 must be less than total 4\]$/);
    r = await post('/collections/cf/points/count', { filter: { must: [{ slice: { total: 0, index: 0 } }] } });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toMatch(/slice\.total/);
  });
});

describe('conformance gaps', () => {
  it('a condition with a key and nothing to check: 422, in Qdrant words', async () => {
    const r = await post('/collections/cf/points/count', { filter: { must: [{ key: 'obj.b' }] } });
    expect(r.status).toBe(422);
    expect(r.body.status.error).toBe('Validation error in JSON body: [filter.must[0]: At least one field condition must be specified]');
  });

  it('an update of vectors with none: 422; of an unknown point: 404; nothing written', async () => {
    let r = await call(server.url, 'PUT', '/collections/cf/points/vectors?wait=true', { points: [{ id: 1, vector: {} }] });
    expect(r.status).toBe(422);
    expect(r.body.status.error).toBe('Validation error in JSON body: [points[0].vector: must specify vectors to update for point]');
    r = await call(server.url, 'PUT', '/collections/cf/points/vectors?wait=true', { points: [{ id: 1, vector: [5, 5] }, { id: 4242, vector: [1, 1] }] });
    expect(r.status).toBe(404);
    expect(r.body.status.error).toBe('Not found: No point with id 4242 found');
    const [p] = await client.retrieve('cf', { ids: [1], with_vector: true });
    expect(p!.vector).toEqual([1, 0]);
  });

  it('a.b does not enter an array a; a[].b does', async () => {
    expect(await countOf({ must: [{ key: 'arr.b', match: { value: 10 } }] })).toBe(0);
    expect(await countOf({ must: [{ key: 'arr[].b', match: { value: 10 } }] })).toBe(ids.length);
    expect(await countOf({ must: [{ key: 'obj.b', match: { value: 1 } }] })).toBe(ids.filter((_, i) => i % 3 === 1).length);
    // The same with a field index on each key.
    await client.createPayloadIndex('cf', { field_name: 'arr[].b', field_schema: 'integer', wait: true });
    await client.createPayloadIndex('cf', { field_name: 'arr.b', field_schema: 'integer', wait: true });
    expect(await countOf({ must: [{ key: 'arr[].b', match: { value: 2 } }] })).toBe(ids.filter((_, i) => i % 3 === 2).length);
    expect(await countOf({ must: [{ key: 'arr.b', match: { value: 2 } }] })).toBe(0);
    const info = await client.getCollection('cf');
    expect(info.payload_schema['arr.b']?.points).toBe(0);
    expect(info.payload_schema['arr[].b']?.points).toBe(ids.length);
  });

  it('match any on a full-text-indexed key compares whole values, as Qdrant', async () => {
    await client.createPayloadIndex('cf', { field_name: 't', field_schema: 'text', wait: true });
    expect(await countOf({ must: [{ key: 't', match: { any: ['hello'] } }] })).toBe(0);
    expect(await countOf({ must: [{ key: 't', match: { any: ['hello world', 'nothing'] } }] })).toBe(1);
    expect(await countOf({ must: [{ key: 't', match: { text: 'hello' } }] })).toBe(1);
  });
});
