// Facet counts through @qdrant/js-client-rest and the gRPC client: distinct values of an indexed
// key among the points a filter matches, with how many points hold each, most frequent first and
// ties by value. Counts are checked against counting the same payloads here.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

type Value = string | number | boolean;
let server: TestServer;
let client: QdrantClient;
const random = rng(5);
const COLORS = ['red', 'red', 'red', 'blue', 'blue', 'green'];
const uuid = (i: number) => `00000000-0000-4000-8000-${String(i % 4).padStart(12, '0')}`;
const points = Array.from({ length: 90 }, (_, i) => ({
  id: i,
  payload: {
    color: COLORS[Math.floor(random() * COLORS.length)]!,
    size: 1 + (i % 3),
    tags: i % 5 === 0 ? ['a', 'a'] : i % 2 === 0 ? ['a', 'b'] : ['c'],
    flag: i % 4 === 0,
    ref: uuid(i).toUpperCase(),
    price: i / 10,
  },
}));

/** The expected hits: a point counts once per distinct value. */
function expected(key: 'color' | 'size' | 'tags' | 'flag', keep: (p: (typeof points)[number]) => boolean = () => true, limit = 10) {
  const counts = new Map<Value, number>();
  for (const p of points.filter(keep)) {
    const raw = p.payload[key];
    for (const v of new Set(Array.isArray(raw) ? raw : [raw])) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (typeof a.value === 'number' ? (a.value as number) - (b.value as number) : String(a.value) < String(b.value) ? -1 : 1))
    .slice(0, limit);
}

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('f', { vectors: { size: 2, distance: 'Dot' } });
  await client.upsert('f', { wait: true, points: points.map((p) => ({ ...p, vector: [1, p.id] })) });
  for (const [field_name, field_schema] of [['color', 'keyword'], ['size', 'integer'], ['tags', 'keyword'], ['flag', 'bool'], ['ref', 'uuid'], ['price', 'float']] as const) {
    await client.createPayloadIndex('f', { field_name, field_schema, wait: true });
  }
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('facet', () => {
  it('counts each value of a keyword, integer or bool key, most frequent first', async () => {
    expect((await client.facet('f', { key: 'color' })).hits).toEqual(expected('color'));
    expect((await client.facet('f', { key: 'size' })).hits).toEqual(expected('size'));
    expect((await client.facet('f', { key: 'flag' })).hits).toEqual(expected('flag'));
    // Ties (sizes 1, 2, 3 hold 30 points each) come by value.
    expect((await client.facet('f', { key: 'size' })).hits.map((h) => h.value)).toEqual([1, 2, 3]);
  });

  it('counts a point once per distinct value of an array, and normalises uuids', async () => {
    const tags = (await client.facet('f', { key: 'tags' })).hits;
    expect(tags).toEqual(expected('tags'));
    expect(tags.find((h) => h.value === 'a')!.count).toBe(points.filter((p) => p.payload.tags.includes('a')).length);
    const refs = (await client.facet('f', { key: 'ref' })).hits;
    expect(refs.map((h) => h.value).sort()).toEqual([0, 1, 2, 3].map(uuid));
    expect(refs.reduce((n, h) => n + h.count, 0)).toBe(points.length);
  });

  it('applies the filter and the limit', async () => {
    const hits = (await client.facet('f', { key: 'color', filter: { must: [{ key: 'size', match: { value: 1 } }] } })).hits;
    expect(hits).toEqual(expected('color', (p) => p.payload.size === 1));
    expect((await client.facet('f', { key: 'color', limit: 2, exact: true })).hits).toEqual(expected('color', () => true, 2));
    const none = await client.facet('f', { key: 'color', filter: { must: [{ key: 'size', match: { value: 99 } }] } });
    expect(none.hits).toEqual([]);
  });

  it('follows writes', async () => {
    await client.setPayload('f', { payload: { color: 'violet' }, points: [0, 1, 2], wait: true });
    const hits = (await client.facet('f', { key: 'color' })).hits;
    expect(hits.find((h) => h.value === 'violet')).toEqual({ value: 'violet', count: 3 });
    const before = expected('color');
    const total = hits.reduce((n, h) => n + h.count, 0);
    expect(total).toBe(before.reduce((n, h) => n + h.count, 0));
  });

  it('counts only exact integers under an integer index', async () => {
    await client.createCollection('fi', { vectors: { size: 2, distance: 'Dot' } });
    await client.createPayloadIndex('fi', { field_name: 'n', field_schema: 'integer', wait: true });
    await client.upsert('fi', { wait: true, points: [1e20, 7, 7, 2 ** 53 + 2].map((n, i) => ({ id: i, vector: [1, i], payload: { n } })) });
    expect((await client.facet('fi', { key: 'n' })).hits).toEqual([{ value: 7, count: 2 }]);
  });

  it('keeps the frequent values of a key with many distinct ones, approximate or exact', async () => {
    await client.createCollection('many', { vectors: { size: 2, distance: 'Dot' } });
    await client.createPayloadIndex('many', { field_name: 'u', field_schema: 'keyword', wait: true });
    const values = [...Array<string>(100).fill('hot'), ...Array<string>(50).fill('warm'), ...Array.from({ length: 450 }, (_, i) => `s${i}`)];
    await client.upsert('many', { wait: true, points: values.map((u, i) => ({ id: i, vector: [1, i], payload: { u } })) });
    // By default each shard sends only its most frequent values (here 100 of about 227).
    const top = [
      { value: 'hot', count: 100 },
      { value: 'warm', count: 50 },
    ];
    expect((await client.facet('many', { key: 'u', limit: 2 })).hits).toEqual(top);
    expect((await client.facet('many', { key: 'u', limit: 2, exact: true })).hits).toEqual(top);
    const all = (await client.facet('many', { key: 'u', limit: 1000, exact: true })).hits;
    expect(all).toHaveLength(452);
    expect(all.reduce((n, h) => n + h.count, 0)).toBe(600);
  });

  it('gives the same hits through gRPC', async () => {
    const rest = (await client.facet('f', { key: 'size', limit: 2 })).hits;
    const g = await grpcClient(server).api('points').facet({ collectionName: 'f', key: 'size', limit: 2n });
    expect(g.hits.map((h) => ({ value: Number(h.value?.variant.value), count: Number(h.count) }))).toEqual(rest);
    const colors = await grpcClient(server).api('points').facet({ collectionName: 'f', key: 'flag' });
    expect(colors.hits.map((h) => h.value?.variant.case)).toEqual(['boolValue', 'boolValue']);
  });

  it.each([
    [{ key: 'price' }, 400, 'Index required but not found for "price" of one of the following types: [keyword, integer, uuid, bool]. Help: create a payload index for this key'],
    [{ key: 'nothing' }, 400, 'Index required but not found for "nothing" of one of the following types: [keyword, integer, uuid, bool]. Help: create a payload index for this key'],
    [{ key: '' }, 400, /^Format error in JSON body: body\.key/],
    [{ key: 'color', limit: 0 }, 422, 'Validation error in JSON body: [limit: value 0 invalid, must be 1 or larger]'],
    [{ key: 'color', filter: { must: [{ key: 'size', mtch: 1 }] } }, 400, /^Bad filter: filter\.must\[0\]\.mtch/],
  ])('refuses %j', async (body, status, message) => {
    const r = await call(server.url, 'POST', '/collections/f/facet', body);
    expect(r.status).toBe(status);
    if (typeof message === 'string') expect(r.body.status.error).toBe(message);
    else expect(r.body.status.error).toMatch(message);
  });

  it('answers 404 for an unknown collection', async () => {
    const r = await call(server.url, 'POST', '/collections/nope/facet', { key: 'color' });
    expect(r.status).toBe(404);
    expect(r.body.status.error).toBe('Collection not found: nope');
  });
});
