// Collection deletion (docs/interface.md section 3.3, docs/decisions.md section 2): DELETE answers once the collection is out of the
// catalog and the name is free at once; its data is dropped in the background under its internal
// id, and a restart in the middle finishes the drop.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/shared/db.js';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dataDir = tempDataDir();
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  removeDir(dataDir);
});

async function start(waitReady = true): Promise<{ s: TestServer; c: QdrantClient }> {
  const s = await startServer({ dataDir, shards: 2, waitReady });
  servers.push(s);
  return { s, c: new QdrantClient({ url: s.url }) };
}

async function fill(c: QdrantClient, name: string, n: number): Promise<void> {
  await c.createCollection(name, { vectors: { size: 4, distance: 'Dot' }, hnsw_config: { m: 4, ef_construct: 8 } });
  const data = randomVectors(n, 4, n);
  for (let i = 0; i < n; i += 5000) {
    await c.upsert(name, { wait: true, points: data.slice(i, i + 5000).map((v, j) => ({ id: i + j, vector: v, payload: { i: i + j } })) });
  }
}

/** Point records per collection id, read straight from LMDB with the server stopped. */
function recordsByCollection(): Map<number, number> {
  const db = openDb(dataDir);
  const out = new Map<number, number>();
  for (const key of db.points.getKeys()) out.set(key[0], (out.get(key[0]) ?? 0) + 1);
  void db.root.close();
  return out;
}

describe('deleting a collection', () => {
  it('frees the name as soon as DELETE answers, drops the data behind it, and loses no write of other collections', async () => {
    const { s, c } = await start();
    await fill(c, 'doomed', 30_000);
    await fill(c, 'other', 10);

    // Writes to another collection in flight while the delete happens.
    const writes = Array.from({ length: 40 }, (_, i) =>
      c.upsert('other', { wait: true, points: [{ id: 1000 + i, vector: [1, 2, 3, 4], payload: { w: i } }] }),
    );
    const del = await call(s.url, 'DELETE', '/collections/doomed');
    expect(del.status).toBe(200);
    expect(del.body.result).toBe(true);
    // No pause: the 30,000 records are still being reclaimed, yet the name is already free.
    const after = await call(s.url, 'POST', '/collections/doomed/points/count', {});
    expect(after.status).toBe(404);
    expect(after.body.status.error).toBe('Collection not found: doomed');
    expect((await c.collectionExists('doomed')).exists).toBe(false);
    const again = await call(s.url, 'DELETE', '/collections/doomed');
    expect([again.status, again.body.result]).toEqual([200, false]);
    await Promise.all(writes);

    const recreated = await call(s.url, 'PUT', '/collections/doomed', { vectors: { size: 2, distance: 'Euclid' } });
    expect(recreated.status).toBe(200);
    expect((await c.count('doomed')).count).toBe(0);
    expect((await c.count('other')).count).toBe(50);
    expect((await c.retrieve('other', { ids: [1039] }))[0]!.payload).toEqual({ w: 39 });
    await c.deleteCollection('doomed');
    expect((await c.collectionExists('doomed')).exists).toBe(false);
    // SIGTERM finishes the background drops before it closes LMDB.
    await s.stop('SIGTERM');

    // Only the surviving collection's records are left on disk, and only its saved HNSW graphs.
    const left = recordsByCollection();
    expect([...left.values()]).toEqual([50]);
    const graphs = new Set(readdirSync(join(dataDir, 'hnsw')).map((f) => Number(f.split('-')[0])));
    expect([...graphs]).toEqual([...left.keys()]);
  }, 180_000);

  it('finishes an interrupted drop after a restart', async () => {
    const { s, c } = await start();
    await fill(c, 'half', 30_000);
    const del = await call(s.url, 'DELETE', '/collections/half');
    expect(del.status).toBe(200);
    await s.stop('SIGKILL');

    const { s: s2, c: c2 } = await start();
    expect((await c2.collectionExists('half')).exists).toBe(false);
    expect((await c2.getCollections()).collections.map((x) => x.name)).toEqual(['other']);
    await s2.stop('SIGTERM');
    expect([...recordsByCollection().values()]).toEqual([50]);
  }, 180_000);
});

describe('a data dir from before the drops database', () => {
  it('moves a collection marked deleting out of the catalog at start and drops its records', async () => {
    const dir = tempDataDir();
    try {
      const s = await startServer({ dataDir: dir, shards: 2 });
      const c = new QdrantClient({ url: s.url });
      await c.createCollection('legacy', { vectors: { size: 4, distance: 'Dot' } });
      await c.upsert('legacy', { wait: true, points: randomVectors(100, 4, 3).map((v, i) => ({ id: i, vector: v })) });
      await s.stop('SIGTERM');
      // What an older Quiver left behind when it was killed during a drop.
      const db = openDb(dir);
      const entry = db.catalog.get('legacy')!;
      await db.catalog.put('legacy', { ...entry, deleting: true });
      await db.root.close();

      const s2 = await startServer({ dataDir: dir, shards: 2 });
      const c2 = new QdrantClient({ url: s2.url });
      expect((await c2.collectionExists('legacy')).exists).toBe(false);
      await c2.createCollection('legacy', { vectors: { size: 2, distance: 'Dot' } });
      expect((await c2.count('legacy')).count).toBe(0);
      await s2.stop('SIGTERM');
      const db2 = openDb(dir);
      expect([...db2.points.getKeys()].filter((k) => k[0] === entry.id)).toEqual([]);
      expect([...db2.drops.getKeys()]).toEqual([]);
      await db2.root.close();
    } finally {
      removeDir(dir);
    }
  }, 60_000);
});
