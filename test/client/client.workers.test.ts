// The client against a real server: every endpoint family, and the start-up retry while a
// server with data is still loading its shards.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QuiverClient, QuiverClientError } from '../../src/client/index.js';
import { randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dataDir = tempDataDir();
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  removeDir(dataDir);
});

describe('QuiverClient', () => {
  it('drives every endpoint family', async () => {
    const s = await startServer({ dataDir, shards: 2 });
    servers.push(s);
    const c = new QuiverClient({ url: s.url });
    expect((await c.health()).version).toMatch(/^1\./);
    expect(await c.createCollection('cl', { vectors: { size: 3, distance: 'Euclid' } })).toBe(true);
    expect((await c.collectionExists('cl')).exists).toBe(true);
    expect((await c.upsert('cl', { points: [{ id: 1, vector: [0, 0, 0], payload: { k: 'a' } }, { id: 2, vector: [1, 1, 1] }] })).status).toBe('completed');
    expect((await c.getPoint('cl', 1)).payload).toEqual({ k: 'a' });
    expect((await c.retrieve('cl', { ids: [2] }))[0]!.id).toBe(2);
    expect((await c.search('cl', { vector: [1, 1, 1], limit: 1 }))[0]!.id).toBe(2);
    expect((await c.query('cl', { query: [0, 0, 0], limit: 1 })).points[0]!.id).toBe(1);
    expect((await c.searchBatch('cl', [{ vector: [0, 0, 0], limit: 1 }]))[0]![0]!.id).toBe(1);
    expect((await c.queryBatch('cl', [{ query: [1, 1, 1], limit: 1 }]))[0]!.points[0]!.id).toBe(2);
    await c.updateVectors('cl', { points: [{ id: 2, vector: [5, 5, 5] }] });
    await c.setPayload('cl', { points: [2], payload: { k: 'b' } });
    await c.createIndex('cl', { field_name: 'k', field_schema: 'keyword' });
    expect((await c.getCollection('cl')).payload_schema.k).toEqual({ data_type: 'keyword', points: 2 });
    expect((await c.count('cl', { filter: { must: [{ key: 'k', match: { value: 'b' } }] } })).count).toBe(1);
    await c.overwritePayload('cl', { points: [1], payload: { z: 1 } });
    await c.deletePayload('cl', { points: [1], keys: ['z'] });
    await c.clearPayload('cl', { points: [2] });
    expect((await c.scroll('cl', { limit: 10 })).points.map((p) => p.payload)).toEqual([{}, {}]);
    const batch = await c.batchUpdate('cl', {
      operations: [{ set_payload: { payload: { k: 'b' }, points: [1, 2] } }, { overwrite_payload: { payload: { k: 'c' }, points: [2] } }],
    });
    expect(batch.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect((await c.facet('cl', { key: 'k' })).hits).toEqual([
      { value: 'b', count: 1 },
      { value: 'c', count: 1 },
    ]);
    await c.deleteIndex('cl', 'k');
    await c.deletePoints('cl', { points: [1] });
    expect((await c.count('cl')).count).toBe(1);
    expect(await c.updateCollection('cl', { hnsw_config: { m: 32 } })).toBe(true);
    const err = await c.getCollection('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuiverClientError);
    expect((err as QuiverClientError).status).toBe(404);
    expect(await c.deleteCollection('cl')).toBe(true);
    expect((await c.listCollections()).collections.map((x) => x.name)).not.toContain('cl');

    // Data for the next test, so that loading takes a moment.
    await c.createCollection('big', { vectors: { size: 32, distance: 'Cosine' } });
    const data = randomVectors(10_000, 32, 9);
    for (let i = 0; i < data.length; i += 2000) {
      await c.upsert('big', { points: data.slice(i, i + 2000).map((v, j) => ({ id: i + j, vector: v })) });
    }
    await s.stop('SIGTERM');
    // Without the saved HNSW graphs the next start rebuilds them, which takes long enough to watch.
    rmSync(join(dataDir, 'hnsw'), { recursive: true, force: true });
  }, 180_000);

  it('covers the auth endpoints, the cluster view, vector deletion and the OpenAPI document', async () => {
    const s = await startServer({ shards: 2 });
    servers.push(s);
    try {
      const anon = new QuiverClient({ url: s.url });
      await anon.createCollection('a', { vectors: { v: { size: 2, distance: 'Dot' } }, shard_number: 2 });
      await anon.upsert('a', { points: [{ id: 1, vector: { v: [1, 2] } }] });
      expect((await anon.collectionCluster('a')).local_shards).toHaveLength(2);
      await anon.deleteVectors('a', { points: [1], vector: ['v'] });
      expect((await anon.retrieve('a', { ids: [1], with_vector: true }))[0]!.vector).toEqual({});
      expect(((await anon.openapi()).paths as Record<string, unknown>)['/collections/{collection_name}/points/query']).toBeDefined();

      const password = 'Correct-Horse-9-battery';
      expect((await anon.createAdmin(password)).status).toBe('success');
      const { token } = await anon.login(password);
      const admin = new QuiverClient({ url: s.url, apiKey: token });
      expect(await admin.setAuthEnabled(true)).toBe(true);
      const key = await admin.createApiKey({ name: 'reader', permission: 'read' });
      expect(key.permission).toBe('read');
      expect((await admin.listApiKeys()).map((k) => k.name)).toEqual(['reader']);
      const reader = new QuiverClient({ url: s.url, apiKey: key.api_key });
      expect((await reader.count('a')).count).toBe(1);
      expect(await reader.metrics()).toMatch(/^quiver_points\{collection="a"\} 1$/m);
      expect(((await anon.metrics().catch((e: unknown) => e)) as QuiverClientError).status).toBe(401);
      const denied = (await reader.upsert('a', { points: [{ id: 2, vector: { v: [0, 1] } }] }).catch((e: unknown) => e)) as QuiverClientError;
      expect(denied).toBeInstanceOf(QuiverClientError);
      expect(denied.status).toBe(403);
      const rotated = await admin.rotateApiKey(key.id);
      expect(rotated.api_key).not.toBe(key.api_key);
      expect(((await reader.count('a').catch((e: unknown) => e)) as QuiverClientError).status).toBe(401);
      expect((await admin.deleteApiKey(key.id)).status).toBe('success');
      expect(await admin.listApiKeys()).toEqual([]);
      expect((await admin.resetAdminPassword('Another-Horse-8-staple')).status).toBe('success');
    } finally {
      await s.stop();
    }
  }, 60_000);

  it('retries through 412 while a restarted server loads, then answers', async () => {
    const s = await startServer({ dataDir, shards: 2, waitReady: false });
    servers.push(s);
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    };
    const c = new QuiverClient({ url: s.url, fetch: counting });
    const count = await c.count('big');
    expect(count.count).toBe(10_000);
    expect(statuses[0]).toBe(412);
    expect(statuses[statuses.length - 1]).toBe(200);
    expect(statuses.length).toBeLessThanOrEqual(6);
  });
});
