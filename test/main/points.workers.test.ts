import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;
const UUID = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('collections', () => {
  it('creates, lists, reports, updates and deletes', async () => {
    expect((await client.collectionExists('life')).exists).toBe(false);
    const put = await call(server.url, 'PUT', '/collections/life', {
      vectors_config: { size: 4, distance: 'Dot' },
      hnsw_config: { m: 8 },
      shard_number: 3,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ status: 'ok', result: true, usage: null });
    expect(typeof put.body.time).toBe('number');
    expect((await client.collectionExists('life')).exists).toBe(true);
    expect((await client.getCollections()).collections.map((c) => c.name)).toContain('life');

    const info = await client.getCollection('life');
    expect(info.status).toBe('green');
    expect(info.points_count).toBe(0);
    expect(info.config.params.vectors).toEqual({ size: 4, distance: 'Dot' });
    expect(info.config.params.shard_number).toBe(3);
    expect(info.config.hnsw_config.m).toBe(8);
    expect(info.config.hnsw_config.ef_construct).toBe(100);

    expect(await client.updateCollection('life', { hnsw_config: { ef_construct: 200 } })).toBe(true);
    expect((await client.getCollection('life')).config.hnsw_config.ef_construct).toBe(200);

    expect(await client.deleteCollection('life')).toBe(true);
    const gone = await call(server.url, 'GET', '/collections/life');
    expect(gone.status).toBe(404);
    // The name is reusable as soon as DELETE has answered.
    const recreated = await call(server.url, 'PUT', '/collections/life', { vectors: { size: 2, distance: 'Euclid' } });
    expect(recreated.status).toBe(200);
    expect((await client.getCollection('life')).points_count).toBe(0);
  });

  it('keeps named vector configs', async () => {
    await client.createCollection('multi', {
      vectors: { a: { size: 2, distance: 'Cosine' }, b: { size: 3, distance: 'Manhattan', hnsw_config: { m: 4 } } },
    });
    const info = await client.getCollection('multi');
    expect(info.config.params.vectors).toEqual({
      a: { size: 2, distance: 'Cosine' },
      b: { size: 3, distance: 'Manhattan', hnsw_config: { m: 4 } },
    });
  });
});

describe('points', () => {
  beforeAll(async () => {
    await client.createCollection('pts', { vectors: { size: 3, distance: 'Euclid' } });
  });

  it('upserts integer and UUID ids with nested payloads and retrieves them', async () => {
    const res = await client.upsert('pts', {
      wait: true,
      points: [
        { id: 1, vector: [1, 2, 3], payload: { name: 'one', tags: ['x', 'y'], nested: { a: { b: 1 } }, nothing: null } },
        { id: UUID.toUpperCase(), vector: [0.1, 0.2, 0.3], payload: { name: 'uuid' } },
        { id: 3, vector: [3, 2, 1] },
      ],
    });
    expect(res.status).toBe('completed');
    const got = await client.retrieve('pts', { ids: [3, UUID, 1, 999], with_vector: true });
    expect(got.map((p) => p.id)).toEqual([3, UUID, 1]);
    expect(got[0]!.payload).toEqual({});
    expect(got[1]!.vector).toEqual([0.1, 0.2, 0.3]);
    expect(got[2]!.payload).toEqual({ name: 'one', tags: ['x', 'y'], nested: { a: { b: 1 } }, nothing: null });

    const one = await call(server.url, 'GET', `/collections/pts/points/${UUID.replace(/-/g, '')}`);
    expect(one.status).toBe(200);
    expect(one.body.result).toEqual({ id: UUID, payload: { name: 'uuid' }, vector: [0.1, 0.2, 0.3] });
  });

  it('selects payload keys and vectors', async () => {
    const inc = await client.retrieve('pts', { ids: [1], with_payload: { include: ['nested.a.b', 'tags'] } });
    expect(inc[0]!.payload).toEqual({ tags: ['x', 'y'], nested: { a: { b: 1 } } });
    const exc = await client.retrieve('pts', { ids: [1], with_payload: { exclude: ['tags', 'nested'] } });
    expect(exc[0]!.payload).toEqual({ name: 'one', nothing: null });
    const none = await client.retrieve('pts', { ids: [1], with_payload: false });
    expect(none[0]!.payload).toBeUndefined();
    expect(none[0]!.vector).toBeUndefined();
  });

  it('upsert is last-write-wins across vector, payload and search', async () => {
    await client.upsert('pts', { wait: true, points: [{ id: 3, vector: [9, 9, 9], payload: { v: 2 } }] });
    const [p] = await client.retrieve('pts', { ids: [3], with_vector: true });
    expect(p!.payload).toEqual({ v: 2 });
    expect(p!.vector).toEqual([9, 9, 9]);
    const near = await client.query('pts', { query: [9, 9, 8.9], limit: 1 });
    expect(near.points[0]!.id).toBe(3);
    expect(near.points[0]!.score).toBeCloseTo(0.1, 5);
  });

  it('accepts the batch form with payloads', async () => {
    await client.createCollection('batch', { vectors: { v: { size: 2, distance: 'Dot' } } });
    const r = await client.upsert('batch', {
      wait: true,
      batch: { ids: [10, 11, 12], vectors: { v: [[1, 0], [0, 1], [1, 1]] }, payloads: [{ i: 0 }, null, { i: 2 }] },
    });
    expect(r.status).toBe('completed');
    const got = await client.retrieve('batch', { ids: [10, 11, 12], with_vector: ['v'] });
    expect(got.map((p) => [p.id, p.payload, p.vector])).toEqual([
      [10, { i: 0 }, { v: [1, 0] }],
      [11, {}, { v: [0, 1] }],
      [12, { i: 2 }, { v: [1, 1] }],
    ]);
  });

  it('updates only the named vectors given', async () => {
    await client.createCollection('upd', { vectors: { a: { size: 2, distance: 'Euclid' }, b: { size: 2, distance: 'Euclid' } } });
    await client.upsert('upd', { wait: true, points: [{ id: 1, vector: { a: [0, 0], b: [1, 1] }, payload: { keep: true } }] });
    const r = await client.updateVectors('upd', { wait: true, points: [{ id: 1, vector: { b: [5, 5] } }] });
    expect(r.status).toBe('completed');
    const [p] = await client.retrieve('upd', { ids: [1], with_vector: true });
    expect(p!.vector).toEqual({ a: [0, 0], b: [5, 5] });
    expect(p!.payload).toEqual({ keep: true });
    const q = await client.query('upd', { query: [5, 5], using: 'b', limit: 1 });
    expect(q.points[0]!.score).toBe(0);
  });

  it('deletes by ids and by filter, and counts', async () => {
    await client.createCollection('del', { vectors: { size: 2, distance: 'Euclid' } });
    await client.upsert('del', {
      wait: true,
      points: Array.from({ length: 20 }, (_, i) => ({ id: i, vector: [i, i], payload: { group: i % 4 } })),
    });
    expect((await client.count('del')).count).toBe(20);
    expect((await client.count('del', { filter: { must: [{ key: 'group', match: { value: 1 } }] } })).count).toBe(5);
    await client.delete('del', { wait: true, points: [0, 1, 2, 12345] });
    expect((await client.count('del')).count).toBe(17);
    await client.delete('del', { wait: true, filter: { must: [{ key: 'group', match: { value: 3 } }] } });
    expect((await client.count('del')).count).toBe(12);
    const left = await client.scroll('del', { limit: 100 });
    expect(left.points.map((p) => p.id)).toEqual([4, 5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18]);
    // Deleted points are gone from search too.
    const q = await client.query('del', { query: [0, 0], limit: 1 });
    expect(q.points[0]!.id).toBe(4);
    // A deleted id can be written again.
    await client.upsert('del', { wait: true, points: [{ id: 0, vector: [0, 0] }] });
    expect((await client.query('del', { query: [0, 0], limit: 1 })).points[0]!.id).toBe(0);
  });

  it('scrolls every point once, in id order, across shards', async () => {
    await client.createCollection('scroll', { vectors: { size: 2, distance: 'Dot' } });
    const ids: (number | string)[] = Array.from({ length: 57 }, (_, i) => i * 3);
    ids.push('00000000-0000-0000-0000-000000000002', 'ffffffff-0000-0000-0000-000000000001');
    await client.upsert('scroll', { wait: true, points: ids.map((id) => ({ id, vector: [1, 0] })) });
    const seen: (number | string)[] = [];
    let offset: number | string | null | undefined = undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = await client.scroll('scroll', { limit: 10, ...(offset !== undefined ? { offset } : {}), with_payload: false });
      seen.push(...page.points.map((p) => p.id));
      offset = page.next_page_offset as number | string | null;
      if (offset === null) break;
    }
    expect(seen).toEqual(ids);
    expect(offset).toBeNull();
  });

  it('acknowledges without wait, and operation ids grow', async () => {
    const a = await call(server.url, 'PUT', '/collections/pts/points', { points: [{ id: 50, vector: [1, 1, 1] }] });
    const b = await call(server.url, 'PUT', '/collections/pts/points?wait=false', { points: [{ id: 51, vector: [1, 1, 1] }] });
    expect(a.body.result.status).toBe('acknowledged');
    expect(b.body.result.status).toBe('acknowledged');
    expect(b.body.result.operation_id).toBeGreaterThan(a.body.result.operation_id);
    // Read-your-writes: an acknowledged write is visible at once.
    expect((await client.retrieve('pts', { ids: [50, 51] })).length).toBe(2);
  });
});
