// Collection deletion (spec 3.3): DELETE marks the collection, its data is dropped in the
// background, requests on it answer 412 meanwhile, and a restart in the middle finishes the drop.

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

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
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
  it('answers 412 while marked, frees the name once dropped, and loses no write of other collections', async () => {
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
    const during = await call(s.url, 'POST', '/collections/doomed/points/count', {});
    expect([412, 404]).toContain(during.status);
    if (during.status === 412) expect(during.body.status.error).toBe('Collection doomed is being deleted');
    await Promise.all(writes);

    const recreated = await until(
      () => call(s.url, 'PUT', '/collections/doomed', { vectors: { size: 2, distance: 'Euclid' } }),
      (r) => r.status !== 412,
    );
    expect(recreated.status).toBe(200);
    expect((await c.count('doomed')).count).toBe(0);
    expect((await c.count('other')).count).toBe(50);
    expect((await c.retrieve('other', { ids: [1039] }))[0]!.payload).toEqual({ w: 39 });
    await c.deleteCollection('doomed');
    await until(() => c.collectionExists('doomed').then((r) => r.exists).catch(() => true), (e) => e === false);
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
    const gone = await until(() => c2.collectionExists('half').then((r) => r.exists).catch(() => true), (e) => e === false);
    expect(gone).toBe(false);
    expect((await c2.getCollections()).collections.map((x) => x.name)).toEqual(['other']);
    await s2.stop('SIGTERM');
    expect([...recordsByCollection().values()]).toEqual([50]);
  }, 180_000);
});
