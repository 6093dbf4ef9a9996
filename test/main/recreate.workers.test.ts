// Deleting a collection frees its name as soon as DELETE answers, as Qdrant clients expect:
// recreateCollection (delete, then create at once), delete-then-create with no pause, and
// `exists` right after a delete, over REST and gRPC, while other collections keep serving.

import { Distance } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, id as gid, vectors as gvectors } from '../helpers/grpc.js';
import { call, randomVectors, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
});
afterAll(async () => {
  await server.stop('SIGTERM');
});

describe('recreateCollection', () => {
  it('100 rounds of recreate, upsert and count on one name while another client reads other collections', async () => {
    const steady = randomVectors(200, 8, 7);
    await client.createCollection('steady', { vectors: { size: 8, distance: 'Cosine' } });
    await client.upsert('steady', { wait: true, points: steady.map((v, i) => ({ id: i, vector: v, payload: { i } })) });

    // The reader runs until the rounds are done; every answer must be whole and correct.
    let done = false;
    const reader = new QdrantClient({ url: server.url, checkCompatibility: false });
    const reads = (async () => {
      let n = 0;
      while (!done) {
        const [count, found] = await Promise.all([
          reader.count('steady', { exact: true }),
          reader.query('steady', { query: steady[n % steady.length]!, limit: 1 }),
        ]);
        expect(count.count).toBe(200);
        expect(found.points[0]!.id).toBe(n % steady.length);
        n++;
      }
      return n;
    })();

    for (let round = 0; round < 100; round++) {
      const size = 4 + (round % 3);
      await client.recreateCollection('churn', { vectors: { size, distance: 'Euclid' }, shard_number: 1 + (round % 2) });
      const pts = randomVectors(round + 1, size, round).map((v, i) => ({ id: i, vector: v }));
      await client.upsert('churn', { wait: true, points: pts });
      // Only this round's points: nothing of an earlier round's data shows through.
      expect((await client.count('churn', { exact: true })).count).toBe(round + 1);
      expect((await client.getCollection('churn')).config.params.vectors).toMatchObject({ size });
    }
    done = true;
    expect(await reads).toBeGreaterThan(0);
  }, 180_000);
});

describe('delete then create with no pause', () => {
  it('over REST: exists is false, GET is 404, a second DELETE is false, and PUT succeeds at once', async () => {
    const pts = randomVectors(2_000, 4, 11).map((v, i) => ({ id: i, vector: v, payload: { i } }));
    expect((await call(server.url, 'PUT', '/collections/again', { vectors: { size: 4, distance: 'Dot' } })).status).toBe(200);
    expect((await call(server.url, 'PUT', '/collections/again/points?wait=true', { points: pts })).status).toBe(200);

    const del = await call(server.url, 'DELETE', '/collections/again');
    expect([del.status, del.body.result]).toEqual([200, true]);
    const exists = await call(server.url, 'GET', '/collections/again/exists');
    expect([exists.status, exists.body.result]).toEqual([200, { exists: false }]);
    const get = await call(server.url, 'GET', '/collections/again');
    expect(get.status).toBe(404);
    expect(get.body.status.error).toBe('Collection not found: again');
    const second = await call(server.url, 'DELETE', '/collections/again');
    expect([second.status, second.body.result]).toEqual([200, false]);
    const list = await call(server.url, 'GET', '/collections');
    expect(list.body.result.collections.map((c: { name: string }) => c.name)).not.toContain('again');

    const put = await call(server.url, 'PUT', '/collections/again', { vectors: { size: 3, distance: 'Euclid' } });
    expect([put.status, put.body.result]).toEqual([200, true]);
    const info = await call(server.url, 'GET', '/collections/again');
    expect(info.body.result.points_count).toBe(0);
    expect(info.body.result.config.params.vectors).toMatchObject({ size: 3, distance: 'Euclid' });
    const up = await call(server.url, 'PUT', '/collections/again/points?wait=true', { points: [{ id: 1, vector: [1, 2, 3] }] });
    expect(up.status).toBe(200);
    const scroll = await call(server.url, 'POST', '/collections/again/points/scroll', { limit: 10 });
    expect(scroll.body.result.points.map((p: { id: number }) => p.id)).toEqual([1]);
  });

  it('requests on the name while its DELETE is in progress answer 412, or what follows the delete', async () => {
    const pts = randomVectors(5_000, 4, 12).map((v, i) => ({ id: i, vector: v }));
    await client.createCollection('racing', { vectors: { size: 4, distance: 'Dot' } });
    await client.upsert('racing', { wait: true, points: pts });
    const del = call(server.url, 'DELETE', '/collections/racing');
    const during = await Promise.all(Array.from({ length: 20 }, () => call(server.url, 'POST', '/collections/racing/points/count', {})));
    expect((await del).body.result).toBe(true);
    for (const r of during) {
      if (r.status === 200) expect(r.body.result.count).toBe(5_000);
      else if (r.status === 412) expect(r.body.status.error).toBe('Collection racing is being deleted');
      else expect([r.status, r.body.status.error]).toEqual([404, 'Collection not found: racing']);
    }
    // Once DELETE has answered, nothing of the old collection answers any more.
    expect((await call(server.url, 'POST', '/collections/racing/points/count', {})).status).toBe(404);
  });

  it('over gRPC: Delete, CollectionExists and Create of the same name with no pause', async () => {
    const g = grpcClient(server);
    const cols = g.api('collections');
    const create = (size: bigint) =>
      cols.create({ collectionName: 'g_again', vectorsConfig: { config: { case: 'params', value: { size, distance: Distance.Euclid } } } });
    expect((await create(4n)).result).toBe(true);
    await g.api('points').upsert({
      collectionName: 'g_again',
      wait: true,
      points: randomVectors(500, 4, 13).map((v, i) => ({ id: gid(i), vectors: gvectors(v), payload: {} })),
    });
    expect((await cols.delete({ collectionName: 'g_again' })).result).toBe(true);
    expect((await cols.collectionExists({ collectionName: 'g_again' })).result?.exists).toBe(false);
    expect((await cols.delete({ collectionName: 'g_again' })).result).toBe(false);
    await expect(cols.get({ collectionName: 'g_again' })).rejects.toThrow(/Collection not found: g_again/);
    expect((await create(2n)).result).toBe(true);
    const info = (await cols.get({ collectionName: 'g_again' })).result!;
    expect(info.pointsCount).toBe(0n);
    expect((await g.api('points').count({ collectionName: 'g_again', exact: true })).result?.count).toBe(0n);
  });
});

describe('concurrent creates and deletes', () => {
  it('collections created at once get their own storage, and a delete racing a create leaves no trace', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `par${i}`);
    const created = await Promise.all(names.map((n) => call(server.url, 'PUT', `/collections/${n}`, { vectors: { size: 2, distance: 'Dot' } })));
    expect(created.map((r) => r.status)).toEqual(names.map(() => 200));
    await Promise.all(names.map((n, i) => call(server.url, 'PUT', `/collections/${n}/points?wait=true`, { points: Array.from({ length: i + 1 }, (_, j) => ({ id: j, vector: [1, j] })) })));
    // Each collection holds its own points only: two creates in flight never share an id.
    const counts = await Promise.all(names.map((n) => call(server.url, 'POST', `/collections/${n}/points/count`, { exact: true })));
    expect(counts.map((r) => r.body.result.count)).toEqual(names.map((_, i) => i + 1));

    // A DELETE sent while the create of the same name is still in flight waits for it, then deletes it.
    const [put, del] = await Promise.all([
      call(server.url, 'PUT', '/collections/racer', { vectors: { size: 2, distance: 'Dot' } }),
      call(server.url, 'DELETE', '/collections/racer'),
    ]);
    expect(put.status).toBe(200);
    expect(del.status).toBe(200);
    const exists = await call(server.url, 'GET', '/collections/racer/exists');
    expect(exists.body.result.exists).toBe(!del.body.result);
  });
});

describe('after a restart', () => {
  it('keeps the recreated collection and finishes dropping the old one', async () => {
    const s = await startServer({ shards: 2 });
    try {
      const c = new QdrantClient({ url: s.url, checkCompatibility: false });
      await c.createCollection('phoenix', { vectors: { size: 4, distance: 'Dot' } });
      await c.upsert('phoenix', { wait: true, points: randomVectors(3_000, 4, 14).map((v, i) => ({ id: i, vector: v })) });
      await c.recreateCollection('phoenix', { vectors: { size: 2, distance: 'Dot' } });
      await c.upsert('phoenix', { wait: true, points: [{ id: 7, vector: [1, 0] }, { id: 8, vector: [0, 1] }] });
      await s.stop('SIGKILL');

      const s2 = await startServer({ dataDir: s.dataDir, shards: 2 });
      try {
        const c2 = new QdrantClient({ url: s2.url, checkCompatibility: false });
        expect((await c2.getCollections()).collections.map((x) => x.name)).toEqual(['phoenix']);
        expect((await c2.count('phoenix', { exact: true })).count).toBe(2);
        expect((await c2.getCollection('phoenix')).config.params.vectors).toMatchObject({ size: 2 });
      } finally {
        await s2.stop('SIGTERM');
      }
    } finally {
      await s.stop('SIGKILL').catch(() => undefined);
    }
  });
});
