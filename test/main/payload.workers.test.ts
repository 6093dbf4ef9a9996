import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dataDir = tempDataDir();
let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ dataDir, shards: 2 });
  client = new QdrantClient({ url: server.url });
});
afterAll(async () => {
  await server.stop();
  removeDir(dataDir);
});

async function payloadOf(coll: string, id: number): Promise<unknown> {
  return (await client.retrieve(coll, { ids: [id] }))[0]?.payload;
}

describe('payload operations', () => {
  beforeAll(async () => {
    await client.createCollection('pay', { vectors: { size: 2, distance: 'Dot' } });
    await client.upsert('pay', {
      wait: true,
      points: [
        { id: 1, vector: [1, 0], payload: { a: 1, nested: { x: 1 }, tags: ['p'] } },
        { id: 2, vector: [0, 1], payload: { a: 2, group: 'g' } },
        { id: 3, vector: [1, 1], payload: { a: 3, group: 'g' } },
      ],
    });
  });

  it('sets (merges) payload by ids, and at a nested key', async () => {
    const r = await client.setPayload('pay', { wait: true, points: [1], payload: { b: 'new', a: 10 } });
    expect(r.status).toBe('completed');
    expect(await payloadOf('pay', 1)).toEqual({ a: 10, b: 'new', nested: { x: 1 }, tags: ['p'] });
    await client.setPayload('pay', { wait: true, points: [1], key: 'nested.deep', payload: { y: 2 } });
    expect(await payloadOf('pay', 1)).toEqual({ a: 10, b: 'new', nested: { x: 1, deep: { y: 2 } }, tags: ['p'] });
  });

  it('sets payload by filter', async () => {
    await client.setPayload('pay', { wait: true, filter: { must: [{ key: 'group', match: { value: 'g' } }] }, payload: { seen: true } });
    expect(await payloadOf('pay', 2)).toEqual({ a: 2, group: 'g', seen: true });
    expect(await payloadOf('pay', 3)).toEqual({ a: 3, group: 'g', seen: true });
    expect(await payloadOf('pay', 1)).not.toHaveProperty('seen');
  });

  it('overwrites, deletes keys (nested too) and clears', async () => {
    await client.overwritePayload('pay', { wait: true, points: [2], payload: { only: 'this' } });
    expect(await payloadOf('pay', 2)).toEqual({ only: 'this' });
    await client.deletePayload('pay', { wait: true, points: [1], keys: ['b', 'nested.deep.y'] });
    expect(await payloadOf('pay', 1)).toEqual({ a: 10, nested: { x: 1, deep: {} }, tags: ['p'] });
    await client.clearPayload('pay', { wait: true, points: [3] });
    expect(await payloadOf('pay', 3)).toEqual({});
    // Vectors are untouched by payload operations.
    expect((await client.retrieve('pay', { ids: [3], with_vector: true }))[0]!.vector).toEqual([1, 1]);
  });

  it('never lets __proto__ reach a prototype: refused as a JSON key, ordinary as a nested key path', async () => {
    await client.upsert('pay', { wait: true, points: [{ id: 50, vector: [1, 1], payload: { a: 1 } }] });
    // fastify's JSON parser refuses __proto__ keys in bodies outright.
    const raw = '{"points":[50],"payload":{"__proto__":{"polluted":true},"b":2}}';
    expect((await call(server.url, 'POST', '/collections/pay/points/payload?wait=true', raw)).status).toBe(400);
    // As a `key` path it is data: the worker stores it as an own property.
    expect((await call(server.url, 'POST', '/collections/pay/points/payload?wait=true', { points: [50], key: '__proto__', payload: { x: 1 } })).status).toBe(200);
    const got = await call(server.url, 'POST', '/collections/pay/points', { ids: [50] });
    expect(JSON.stringify(got.body.result[0].payload)).toBe('{"a":1,"__proto__":{"x":1}}');
    // Nothing leaked into shared prototypes: other points have no `x`.
    expect((await client.count('pay', { filter: { must: [{ key: 'x', match: { value: 1 } }] } })).count).toBe(0);
    await client.delete('pay', { wait: true, points: [50] });
  });

  it('rejects a missing id with 404 and changes nothing', async () => {
    const before = await payloadOf('pay', 1);
    const r = await call(server.url, 'POST', '/collections/pay/points/payload?wait=true', { points: [1, 999], payload: { z: 1 } });
    expect(r.status).toBe(404);
    expect(r.body.status.error).toBe('Not found: No point with id 999 found');
    expect(await payloadOf('pay', 1)).toEqual(before);
  });

  it('rejects bad selections and bodies', async () => {
    const neither = await call(server.url, 'POST', '/collections/pay/points/payload', { payload: { z: 1 } });
    expect(neither.status).toBe(400);
    expect(neither.body.status.error).toContain('Either `points` or `filter`');
    const notObject = await call(server.url, 'POST', '/collections/pay/points/payload', { points: [1], payload: [1, 2] });
    expect(notObject.status).toBe(400);
    const badFilter = await call(server.url, 'POST', '/collections/pay/points/payload/clear', { filter: { must: [{ nope: 1 }] } });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.status.error).toContain("filter.must[0]: unknown condition 'nope'");
    const noCollection = await call(server.url, 'POST', '/collections/none/points/payload/delete', { points: [1], keys: ['a'] });
    expect(noCollection.status).toBe(404);
  });

  it('refuses a key or keys that are not JSON paths, and changes nothing', async () => {
    const before = await payloadOf('pay', 1);
    const badKey = await call(server.url, 'POST', '/collections/pay/points/payload?wait=true', { points: [1], payload: { z: 1 }, key: '\r\n\t' });
    expect([badKey.status, badKey.body.status.error]).toEqual([400, "Bad key: Invalid json path: '\\r\\n\\t'"]);
    const badKeys = await call(server.url, 'POST', '/collections/pay/points/payload/delete?wait=true', { points: [1], keys: ['a', 'a..b'] });
    expect([badKeys.status, badKeys.body.status.error]).toEqual([400, "Bad keys[1]: Invalid json path: 'a..b'"]);
    expect(await payloadOf('pay', 1)).toEqual(before);
  });
});

describe('field indexes', () => {
  const N = 400;
  beforeAll(async () => {
    await client.createCollection('idx', { vectors: { size: 2, distance: 'Euclid' } });
    await client.upsert('idx', {
      wait: true,
      points: Array.from({ length: N }, (_, i) => ({
        id: i,
        vector: [i, 0],
        payload: {
          kind: `k${i % 4}`,
          n: i,
          f: i / 10,
          flag: i % 2 === 0,
          at: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
          loc: { lon: (i % 40) - 20, lat: Math.floor(i / 40) - 5 },
          text: i % 3 === 0 ? 'red fox jumps' : 'blue whale swims',
          uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
        },
      })),
    });
  });

  const schemas = {
    kind: 'keyword',
    n: { type: 'integer', lookup: true, range: true },
    f: 'float',
    flag: 'bool',
    at: 'datetime',
    loc: 'geo',
    text: { type: 'text', tokenizer: 'word', lowercase: true },
    uid: 'uuid',
  } as const;

  const filters: [string, Record<string, unknown>, (i: number) => boolean][] = [
    ['keyword', { must: [{ key: 'kind', match: { value: 'k1' } }] }, (i) => i % 4 === 1],
    ['keyword any', { must: [{ key: 'kind', match: { any: ['k1', 'k2'] } }] }, (i) => i % 4 === 1 || i % 4 === 2],
    ['integer value', { must: [{ key: 'n', match: { value: 77 } }] }, (i) => i === 77],
    ['integer range', { must: [{ key: 'n', range: { gte: 10, lt: 50 } }] }, (i) => i >= 10 && i < 50],
    ['float range', { must: [{ key: 'f', range: { gt: 5.5, lte: 7 } }] }, (i) => i / 10 > 5.5 && i / 10 <= 7],
    ['bool', { must: [{ key: 'flag', match: { value: false } }] }, (i) => i % 2 === 1],
    [
      'datetime range',
      { must: [{ key: 'at', range: { gte: '2024-01-02T00:00:00Z', lt: '2024-01-03T00:00:00+00:00' } }] },
      (i) => i >= 24 && i < 48,
    ],
    [
      'geo box',
      { must: [{ key: 'loc', geo_bounding_box: { top_left: { lon: -2.5, lat: 1.5 }, bottom_right: { lon: 2.5, lat: -1.5 } } }] },
      (i) => Math.abs((i % 40) - 20) <= 2 && Math.abs(Math.floor(i / 40) - 5) <= 1,
    ],
    ['text', { must: [{ key: 'text', match: { text: 'FOX red' } }] }, (i) => i % 3 === 0],
    ['uuid', { must: [{ key: 'uid', match: { value: '00000000-0000-0000-0000-000000000005' } }] }, (i) => i === 5],
    [
      'combined must + should',
      { must: [{ key: 'flag', match: { value: true } }], should: [{ key: 'n', range: { lt: 20 } }, { key: 'kind', match: { value: 'k2' } }] },
      (i) => i % 2 === 0 && (i < 20 || i % 4 === 2),
    ],
  ];

  async function results(filter: Record<string, unknown>): Promise<{ count: number; ids: number[]; nearest: number[] }> {
    const count = (await client.count('idx', { filter, exact: true })).count;
    const ids: number[] = [];
    let offset: number | undefined;
    for (;;) {
      const page = await client.scroll('idx', { filter, limit: 64, with_payload: false, ...(offset !== undefined ? { offset } : {}) });
      ids.push(...page.points.map((p) => p.id as number));
      if (page.next_page_offset === null || page.next_page_offset === undefined) break;
      offset = page.next_page_offset as number;
    }
    const nearest = (await client.query('idx', { query: [200, 0], limit: 5, filter })).points.map((p) => p.id as number);
    return { count, ids, nearest };
  }

  it('answers every filter the same before and after indexing, and as the oracle says', async () => {
    const before = await Promise.all(filters.map(([, f]) => results(f)));
    for (const [field, schema] of Object.entries(schemas)) {
      const r = await call(server.url, 'PUT', '/collections/idx/index?wait=true', { field_name: field, field_schema: schema });
      expect(r.status, field).toBe(200);
      expect(r.body.result.status).toBe('completed');
    }
    const after = await Promise.all(filters.map(([, f]) => results(f)));
    filters.forEach(([name, , keep], i) => {
      const want = Array.from({ length: N }, (_, id) => id).filter(keep);
      expect(after[i]!.ids, name).toEqual(want);
      expect(after[i]!.count, name).toBe(want.length);
      const wantNearest = [...want].sort((a, b) => Math.abs(a - 200) - Math.abs(b - 200) || a - b).slice(0, 5);
      expect(after[i]!.nearest, name).toEqual(wantNearest);
      // Text matching changes meaning with an index: substring without, all tokens with.
      if (name === 'text') expect(before[i]!.count).toBe(0);
      else expect(before[i], name).toEqual(after[i]);
    });
  });

  it('reports payload_schema with types and point counts', async () => {
    const info = await client.getCollection('idx');
    expect(info.payload_schema.kind).toEqual({ data_type: 'keyword', points: N });
    expect(info.payload_schema.n).toMatchObject({ data_type: 'integer', points: N, params: { type: 'integer', lookup: true, range: true } });
    expect(info.payload_schema.text).toMatchObject({ data_type: 'text', points: N });
    expect(Object.keys(info.payload_schema).sort()).toEqual(Object.keys(schemas).sort());
  });

  it('keeps indexes in step with upserts, payload operations and deletes', async () => {
    await client.upsert('idx', { wait: true, points: [{ id: 1000, vector: [0, 0], payload: { kind: 'fresh' } }] });
    expect((await client.count('idx', { filter: { must: [{ key: 'kind', match: { value: 'fresh' } }] } })).count).toBe(1);
    await client.setPayload('idx', { wait: true, points: [1000], payload: { kind: 'renamed' } });
    expect((await client.count('idx', { filter: { must: [{ key: 'kind', match: { value: 'fresh' } }] } })).count).toBe(0);
    expect((await client.count('idx', { filter: { must: [{ key: 'kind', match: { value: 'renamed' } }] } })).count).toBe(1);
    await client.delete('idx', { wait: true, points: [1000] });
    expect((await client.count('idx', { filter: { must: [{ key: 'kind', match: { value: 'renamed' } }] } })).count).toBe(0);
    expect((await client.getCollection('idx')).payload_schema.kind!.points).toBe(N);
  });

  it('count with exact=false estimates from the index', async () => {
    const filter = { must: [{ key: 'kind', match: { value: 'k3' } }] };
    expect((await client.count('idx', { filter, exact: false })).count).toBe(N / 4);
  });

  it('scrolls ordered by an indexed numeric or datetime key', async () => {
    const asc = await client.scroll('idx', { limit: 3, order_by: 'n', with_payload: false });
    expect(asc.points.map((p) => p.id)).toEqual([0, 1, 2]);
    expect(asc.next_page_offset ?? null).toBeNull();
    const desc = await client.scroll('idx', { limit: 3, order_by: { key: 'f', direction: 'desc', start_from: 10 }, with_payload: false });
    expect(desc.points.map((p) => p.id)).toEqual([100, 99, 98]);
    const byDate = await client.scroll('idx', {
      limit: 2,
      order_by: { key: 'at', start_from: '2024-01-02T00:00:00Z' },
      filter: { must: [{ key: 'flag', match: { value: true } }] },
      with_payload: false,
    });
    expect(byDate.points.map((p) => p.id)).toEqual([24, 26]);
    const unindexed = await call(server.url, 'POST', '/collections/idx/points/scroll', { order_by: 'nope' });
    expect(unindexed.status).toBe(400);
    expect(unindexed.body.status.error).toContain('order_by');
  });

  it('deletes an index, and rejects unknown schemas and missing collections', async () => {
    const del = await call(server.url, 'DELETE', '/collections/idx/index/uid?wait=true');
    expect(del.status).toBe(200);
    expect((await client.getCollection('idx')).payload_schema).not.toHaveProperty('uid');
    // Filtering on the field still works without its index.
    expect((await client.count('idx', { filter: { must: [{ key: 'uid', match: { value: '00000000-0000-0000-0000-000000000005' } }] } })).count).toBe(1);
    const bad = await call(server.url, 'PUT', '/collections/idx/index', { field_name: 'x', field_schema: 'vectorish' });
    expect(bad.status).toBe(400);
    expect(bad.body.status.error).toContain('field_schema');
    const none = await call(server.url, 'PUT', '/collections/idx/index', { field_name: 'x' });
    expect(none.status).toBe(400);
    expect(none.body.status.error).toContain('field_schema is required');
    const missing = await call(server.url, 'PUT', '/collections/ghost/index', { field_name: 'x', field_schema: 'keyword' });
    expect(missing.status).toBe(404);
    expect(missing.body.status.error).toBe('Collection not found: ghost');
  });

  it('keeps indexes across a restart', async () => {
    await server.stop('SIGTERM');
    server = await startServer({ dataDir, shards: 2 });
    client = new QdrantClient({ url: server.url });
    const info = await client.getCollection('idx');
    expect(info.payload_schema.kind).toEqual({ data_type: 'keyword', points: N });
    expect(info.payload_schema.text).toMatchObject({ data_type: 'text', points: N });
    const filter = { must: [{ key: 'text', match: { text: 'fox' } }] };
    expect((await client.count('idx', { filter, exact: false })).count).toBe(Math.ceil(N / 3));
    expect((await client.count('idx', { filter })).count).toBe(Math.ceil(N / 3));
  });
});
