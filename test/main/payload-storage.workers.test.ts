// on_disk_payload through the real server (real workers and LMDB), with the official REST client:
// Qdrant's default (true) reported and in force, payloads then read from the points' records where
// they are needed. Two collections with the same points, one with payloads on disk and one in
// memory, must answer every read alike: retrieve, scroll, search and count under random filters
// (unindexed keys, nested, arrays, is_empty, has_id), with and without field indexes, after
// payload operations, after a PATCH that moves the payloads in and out of memory, after a restart
// and after kill -9. A payload key named `__proto__` keeps its name both ways.

import { QdrantClient } from '@qdrant/js-client-rest';
import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { randomFilter, randomPayload } from '../helpers/payload-random.js';
import { killDuringIngest, restarts } from '../helpers/restarts.js';
import { call, rng } from '../helpers/server.js';
import type { Filter } from '../../src/shared/filter.js';

const DIM = 8;
const N = 400;
const { start, newDir } = restarts();

const r = rng(31);
const points = Array.from({ length: N }, (_, id) => ({ id, vector: Array.from({ length: DIM }, () => r() * 2 - 1), payload: randomPayload(r) ?? {} }));
const ids = points.map((p) => p.id);
const filters: Filter[] = Array.from({ length: 60 }, () => randomFilter(r, ids));

/** A result without the points' versions: operation ids count across collections, so the two differ. */
function unversioned(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result), (k, v: unknown) => (k === 'version' ? undefined : v));
}

/** Every read of both collections, side by side: what one answers the other must. */
async function sameAnswers(url: string, disk: string, memory: string, label: string): Promise<void> {
  const both = async (method: string, path: (c: string) => string, body: unknown): Promise<void> => {
    const [a, b] = await Promise.all([call(url, method, path(disk), body), call(url, method, path(memory), body)]);
    expect(a.status, `${label}: ${method} ${path(disk)} ${JSON.stringify(body)}`).toBe(b.status);
    if (a.status === 200) expect(unversioned(a.body.result), `${label}: ${JSON.stringify(body)}`).toEqual(unversioned(b.body.result));
    else expect(a.body.status, label).toEqual(b.body.status);
  };
  await both('POST', (c) => `/collections/${c}/points`, { ids: [0, 1, 7, 42, N - 1, N + 5], with_payload: true });
  await both('POST', (c) => `/collections/${c}/points/scroll`, { limit: N + 10, with_payload: true });
  for (const filter of filters) {
    await both('POST', (c) => `/collections/${c}/points/count`, { filter, exact: true });
    await both('POST', (c) => `/collections/${c}/points/scroll`, { filter, limit: 20, with_payload: true });
    await both('POST', (c) => `/collections/${c}/points/query`, { query: points[5]!.vector, filter, limit: 5, with_payload: ['a', 'o'], params: { exact: true } });
  }
}

describe('payloads on disk (on_disk_payload)', () => {
  it('answers as payloads in memory do: reads, random filters, indexes, payload operations, PATCH both ways, restarts', async () => {
    const dataDir = newDir();
    let s = await start(dataDir);
    let client = new QdrantClient({ url: s.url, checkCompatibility: false });
    await client.createCollection('disk', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2 });
    await client.createCollection('mem', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2, on_disk_payload: false });
    // Qdrant's default, reported as in force; the explicit setting as given.
    expect((await client.getCollection('disk')).config.params.on_disk_payload).toBe(true);
    expect((await client.getCollection('mem')).config.params.on_disk_payload).toBe(false);
    for (const c of ['disk', 'mem']) for (let i = 0; i < N; i += 100) await client.upsert(c, { wait: true, points: points.slice(i, i + 100) });
    await sameAnswers(s.url, 'disk', 'mem', 'unindexed');

    // A key named __proto__ (set through a key path: bodies may not carry one) stays what it is:
    // JSON text in the record, where msgpack would rename it.
    for (const c of ['disk', 'mem']) {
      await client.upsert(c, { wait: true, points: [{ id: N, vector: points[0]!.vector, payload: { a: 1 } }] });
      expect((await call(s.url, 'POST', `/collections/${c}/points/payload?wait=true`, { points: [N], key: '__proto__', payload: { x: 2 } })).status).toBe(200);
      const got = await call(s.url, 'POST', `/collections/${c}/points`, { ids: [N], with_payload: true });
      expect(JSON.stringify(got.body.result[0].payload)).toBe('{"a":1,"__proto__":{"x":2}}');
    }

    // Payload operations read the payload they change from the record.
    for (const c of ['disk', 'mem']) {
      await client.setPayload(c, { wait: true, points: [1, 2, 3], payload: { a: 'set', o: { k: 'nested' } } });
      await client.overwritePayload(c, { wait: true, points: [4], payload: { b: [1, 2] } });
      await client.deletePayload(c, { wait: true, points: [5, 6], keys: ['a', 'o.k'] });
      await client.clearPayload(c, { wait: true, points: [7] });
      await client.setPayload(c, { wait: true, filter: { must: [{ key: 'b', match: { value: 1 } }] }, payload: { matched: true } });
      // A vector update keeps the payload its record had.
      await client.updateVectors(c, { wait: true, points: [{ id: 8, vector: points[9]!.vector }] });
    }
    await sameAnswers(s.url, 'disk', 'mem', 'after payload operations');

    // Field indexes hold what they index; filters over indexed keys answer the same.
    for (const c of ['disk', 'mem']) {
      await client.createPayloadIndex(c, { wait: true, field_name: 'a', field_schema: 'keyword' });
      await client.createPayloadIndex(c, { wait: true, field_name: 'b', field_schema: 'integer' });
    }
    await sameAnswers(s.url, 'disk', 'mem', 'indexed');

    // PATCH moves payloads into memory and back out: reported, and the answers stay.
    await client.updateCollection('disk', { params: { on_disk_payload: false } });
    expect((await client.getCollection('disk')).config.params.on_disk_payload).toBe(false);
    await sameAnswers(s.url, 'disk', 'mem', 'moved into memory');
    await client.updateCollection('disk', { params: { on_disk_payload: true } });
    expect((await client.getCollection('disk')).config.params.on_disk_payload).toBe(true);
    await client.setPayload('disk', { wait: true, points: [10], payload: { c: 'after' } });
    await client.setPayload('mem', { wait: true, points: [10], payload: { c: 'after' } });
    await sameAnswers(s.url, 'disk', 'mem', 'moved back to disk');

    // A restart reads payloads (and rebuilds the indexes) from the records.
    expect(await s.stop('SIGTERM')).toBe(0);
    s = await start(dataDir);
    client = new QdrantClient({ url: s.url, checkCompatibility: false });
    expect((await client.getCollection('disk')).config.params.on_disk_payload).toBe(true);
    await sameAnswers(s.url, 'disk', 'mem', 'after a restart');

    // kill -9 in the middle of an ingest: every payload acknowledged with wait=true is back.
    const more = Array.from({ length: 1200 }, () => Array.from({ length: DIM }, () => r() * 2 - 1));
    const acked = await killDuringIngest(s, client, 'disk', more, 10_000, 8);
    s = await start(dataDir);
    client = new QdrantClient({ url: s.url, checkCompatibility: false });
    const got = await client.retrieve('disk', { ids: acked, with_payload: true });
    expect(got.length).toBe(acked.length);
    for (const p of got) expect(p.payload).toMatchObject({ i: Number(p.id) });
    await s.stop('SIGTERM');
  }, 240_000);

  it('refuses an on_disk_payload that is not a boolean, on create and PATCH, and changes nothing', async () => {
    const s = await start(newDir());
    const bad = await call(s.url, 'PUT', '/collections/odp', { vectors: { size: 2, distance: 'Dot' }, on_disk_payload: 'yes' });
    expectError({ status: bad.status, body: bad.body }, 400, 'on_disk_payload');
    expect((await call(s.url, 'GET', '/collections/odp')).status).toBe(404);
    expect((await call(s.url, 'PUT', '/collections/odp', { vectors: { size: 2, distance: 'Dot' } })).status).toBe(200);
    const patch = await call(s.url, 'PATCH', '/collections/odp', { params: { on_disk_payload: 1 } });
    expectError({ status: patch.status, body: patch.body }, 400, 'on_disk_payload');
    expect((await call(s.url, 'GET', '/collections/odp')).body.result.config.params.on_disk_payload).toBe(true);
    await s.stop('SIGTERM');
  });
});
