// The whole scenario through the official gRPC client (@qdrant/js-client-grpc) against the
// real server: collections with unnamed and named vectors, every point and payload operation,
// field indexes, search, batch search, count, scroll, query, and deletes.

import { CollectionStatus, Distance, FieldType, PayloadSchemaType, UpdateStatus, type QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cond, enable, grpcClient, id, idOf, jsonPayload, payload, vectors, vectorsOf, type Json } from '../helpers/grpc.js';
import { removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer();
  client = grpcClient(server);
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const UUID = '6a0e8a4c-3f5d-4c31-9a59-2b5f0c1d7e11';
const PAYLOADS: Record<string, Record<string, Json>> = {
  1: { city: 'Berlin', n: 1, price: 9.5, tags: ['a', 'b'], meta: { nested: { deep: [1, { x: null }] } }, gone: null, at: '2024-05-01T10:00:00Z', ok: true },
  2: { city: 'Paris', n: 2, price: 20, tags: [], meta: { nested: { deep: [] } }, ok: false },
  3: { city: 'Berlin', n: 3, price: 31.25, tags: ['c'] },
  [UUID]: { city: 'Rome', n: 4, note: 'uuid point' },
};
const VECTORS: Record<string, number[]> = {
  1: [1, 0, 0, 0],
  2: [0, 1, 0, 0],
  3: [0.9, 0.1, 0, 0],
  [UUID]: [0, 0, 1, 0],
};
const idValue = (k: string): number | string => (/^\d+$/.test(k) ? Number(k) : k);

describe('health', () => {
  it('answers the health check with the Qdrant API version', async () => {
    const r = await client.api('service').healthCheck({});
    expect(r.title).toContain('quiver');
    expect(r.version).toBe('1.19.0');
  });
});

describe('collections', () => {
  it('creates a collection with an unnamed vector and one with named vectors', async () => {
    const a = await client.api('collections').create({
      collectionName: 'g_plain',
      vectorsConfig: { config: { case: 'params', value: { size: 4n, distance: Distance.Dot } } },
    });
    expect(a.result).toBe(true);
    const b = await client.api('collections').create({
      collectionName: 'g_named',
      vectorsConfig: {
        config: {
          case: 'paramsMap',
          value: { map: { image: { size: 3n, distance: Distance.Euclid }, text: { size: 2n, distance: Distance.Cosine, hnswConfig: { m: 8n } } } },
        },
      },
      hnswConfig: { efConstruct: 64n },
      shardNumber: 3,
    });
    expect(b.result).toBe(true);
    expect(b.time).toBeGreaterThan(0);
  });

  it('lists, checks existence and describes them', async () => {
    const list = await client.api('collections').list({});
    expect(list.collections.map((c) => c.name)).toEqual(expect.arrayContaining(['g_plain', 'g_named']));
    expect((await client.api('collections').collectionExists({ collectionName: 'g_plain' })).result?.exists).toBe(true);
    expect((await client.api('collections').collectionExists({ collectionName: 'g_absent' })).result?.exists).toBe(false);

    const plain = (await client.api('collections').get({ collectionName: 'g_plain' })).result!;
    expect(plain.status).toBe(CollectionStatus.Green);
    expect(plain.pointsCount).toBe(0n);
    const pv = plain.config!.params!.vectorsConfig!.config;
    expect(pv.case).toBe('params');
    expect(pv.case === 'params' && pv.value.size).toBe(4n);
    expect(pv.case === 'params' && pv.value.distance).toBe(Distance.Dot);

    const named = (await client.api('collections').get({ collectionName: 'g_named' })).result!;
    expect(named.config!.params!.shardNumber).toBe(3);
    expect(named.config!.hnswConfig!.efConstruct).toBe(64n);
    const nv = named.config!.params!.vectorsConfig!.config;
    expect(nv.case).toBe('paramsMap');
    if (nv.case === 'paramsMap') {
      expect(nv.value.map.image!.distance).toBe(Distance.Euclid);
      expect(nv.value.map.text!.size).toBe(2n);
      expect(nv.value.map.text!.hnswConfig?.m).toBe(8n);
    }
  });

  it('updates a collection', async () => {
    const r = await client.api('collections').update({ collectionName: 'g_named', hnswConfig: { efConstruct: 80n } });
    expect(r.result).toBe(true);
    const info = (await client.api('collections').get({ collectionName: 'g_named' })).result!;
    expect(info.config!.hnswConfig!.efConstruct).toBe(80n);
  });

  it('reports where the shards live', async () => {
    const r = await client.api('collections').collectionClusterInfo({ collectionName: 'g_named' });
    expect(r.shardCount).toBe(3n);
    expect(r.localShards).toHaveLength(3);
  });
});

describe('points', () => {
  it('upserts integer and UUID ids with nested, array, null and datetime payloads', async () => {
    const r = await client.api('points').upsert({
      collectionName: 'g_plain',
      wait: true,
      points: Object.keys(PAYLOADS).map((k) => ({ id: id(idValue(k)), vectors: vectors(VECTORS[k]!), payload: payload(PAYLOADS[k]!) })),
    });
    expect(r.result?.status).toBe(UpdateStatus.Completed);
    expect(r.result?.operationId).toBeGreaterThan(0n);
    const noWait = await client.api('points').upsert({ collectionName: 'g_plain', points: [{ id: id(50), vectors: vectors([0, 0, 0, 1]) }] });
    expect(noWait.result?.status).toBe(UpdateStatus.Acknowledged);
    await client.api('points').delete({ collectionName: 'g_plain', wait: true, points: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(50)] } } } });
  });

  it('gets points with payload and vectors, skipping missing ids', async () => {
    const r = await client.api('points').get({
      collectionName: 'g_plain',
      ids: [id(1), id(UUID), id(999)],
      withPayload: enable(true),
      withVectors: enable(true),
    });
    expect(r.result.map(idOf)).toEqual([1, UUID]);
    expect(jsonPayload(r.result[0]!.payload)).toEqual(PAYLOADS[1]);
    expect(jsonPayload(r.result[1]!.payload)).toEqual(PAYLOADS[UUID]);
    expect(vectorsOf(r.result[0]!)).toEqual(VECTORS[1]);
    const bare = await client.api('points').get({ collectionName: 'g_plain', ids: [id(2)], withPayload: enable(false) });
    expect(bare.result[0]!.payload).toEqual({});
    expect(bare.result[0]!.vectors).toBeUndefined();
    const some = await client.api('points').get({
      collectionName: 'g_plain',
      ids: [id(1)],
      withPayload: { selectorOptions: { case: 'include', value: { fields: ['city', 'n'] } } },
    });
    expect(jsonPayload(some.result[0]!.payload)).toEqual({ city: 'Berlin', n: 1 });
  });

  it('updates vectors', async () => {
    await client.api('points').updateVectors({ collectionName: 'g_plain', wait: true, points: [{ id: id(2), vectors: vectors([0, 0.5, 0.5, 0]) }] });
    const r = await client.api('points').get({ collectionName: 'g_plain', ids: [id(2)], withVectors: enable(true) });
    expect(vectorsOf(r.result[0]!)).toEqual([0, 0.5, 0.5, 0]);
  });

  it('searches with a filter, and in batches', async () => {
    const r = await client.api('points').search({
      collectionName: 'g_plain',
      vector: [1, 0, 0, 0],
      limit: 10n,
      filter: { must: [cond.keyword('city', 'Berlin')] },
      withPayload: enable(true),
    });
    expect(r.result.map(idOf)).toEqual([1, 3]);
    expect(r.result[0]!.score).toBeCloseTo(1, 6);
    expect(r.result[1]!.score).toBeCloseTo(0.9, 6);
    expect(jsonPayload(r.result[1]!.payload)).toEqual(PAYLOADS[3]);

    const batch = await client.api('points').searchBatch({
      collectionName: 'g_plain',
      searchPoints: [
        { collectionName: 'g_plain', vector: [1, 0, 0, 0], limit: 1n },
        { collectionName: 'g_plain', vector: [0, 0, 1, 0], limit: 2n, filter: { mustNot: [cond.keyword('city', 'Berlin')] }, withVectors: enable(true) },
        { collectionName: 'g_plain', vector: [1, 0, 0, 0], limit: 10n, filter: { must: [cond.range('price', { gte: 10 })] }, offset: 1n },
      ],
    });
    expect(batch.result.map((b) => b.result.map(idOf))).toEqual([[1], [UUID, 2], [2]]);
    expect(vectorsOf(batch.result[1]!.result[0]!)).toEqual(VECTORS[UUID]);
  });

  it('counts, with and without a filter', async () => {
    expect((await client.api('points').count({ collectionName: 'g_plain' })).result?.count).toBe(4n);
    const r = await client.api('points').count({ collectionName: 'g_plain', filter: { should: [cond.integer('n', 2), cond.isNull('gone')] }, exact: true });
    expect(r.result?.count).toBe(2n);
  });

  it('scrolls page by page', async () => {
    const seen: (number | string)[] = [];
    let offset: ReturnType<typeof id> | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await client.api('points').scroll({ collectionName: 'g_plain', limit: 3, withPayload: enable(true), ...(offset ? { offset } : {}) });
      seen.push(...r.result.map(idOf));
      if (r.nextPageOffset === undefined) break;
      offset = id(idOf({ id: r.nextPageOffset }));
    }
    expect(seen).toEqual([1, 2, 3, UUID]);
    const filtered = await client.api('points').scroll({ collectionName: 'g_plain', filter: { must: [cond.hasId([3, UUID])] }, limit: 10 });
    expect(filtered.result.map(idOf)).toEqual([3, UUID]);
    expect(filtered.nextPageOffset).toBeUndefined();
  });

  it('queries by vector, by point id, and in batches', async () => {
    const byVector = await client.api('points').query({
      collectionName: 'g_plain',
      query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [1, 0, 0, 0] } } } } },
      limit: 2n,
      withPayload: enable(true),
    });
    expect(byVector.result.map(idOf)).toEqual([1, 3]);
    expect(jsonPayload(byVector.result[0]!.payload)).toEqual(PAYLOADS[1]);

    const byId = await client.api('points').query({
      collectionName: 'g_plain',
      query: { variant: { case: 'nearest', value: { variant: { case: 'id', value: id(1) } } } },
      limit: 1n,
      filter: { must: [cond.keyword('city', 'Berlin')] },
    });
    expect(byId.result.map(idOf)).toEqual([3]);

    const batch = await client.api('points').queryBatch({
      collectionName: 'g_plain',
      queryPoints: [
        { collectionName: 'g_plain', query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [0, 0, 1, 0] } } } } }, limit: 1n },
        { collectionName: 'g_plain', query: { variant: { case: 'nearest', value: { variant: { case: 'id', value: id(UUID) } } } }, limit: 1n },
      ],
    });
    expect(batch.result.map((b) => b.result.map(idOf))).toEqual([[UUID], [2]]);
  });

  it('sets, overwrites, deletes and clears payloads', async () => {
    const selector = (ids: (number | string)[]) => ({ pointsSelectorOneOf: { case: 'points' as const, value: { ids: ids.map(id) } } });
    const read = async (i: number | string) =>
      jsonPayload((await client.api('points').get({ collectionName: 'g_plain', ids: [id(i)], withPayload: enable(true) })).result[0]!.payload);

    const set = await client.api('points').setPayload({ collectionName: 'g_plain', wait: true, payload: payload({ extra: { k: [1, 2] } }), pointsSelector: selector([1]) });
    expect(set.result?.status).toBe(UpdateStatus.Completed);
    expect(await read(1)).toEqual({ ...PAYLOADS[1], extra: { k: [1, 2] } });

    await client.api('points').setPayload({
      collectionName: 'g_plain',
      wait: true,
      payload: payload({ flag: true }),
      pointsSelector: { pointsSelectorOneOf: { case: 'filter', value: { must: [cond.keyword('city', 'Paris')] } } },
    });
    expect((await read(2)).flag).toBe(true);

    await client.api('points').overwritePayload({ collectionName: 'g_plain', wait: true, payload: payload({ only: 'this' }), pointsSelector: selector([2]) });
    expect(await read(2)).toEqual({ only: 'this' });

    await client.api('points').deletePayload({ collectionName: 'g_plain', wait: true, keys: ['extra', 'tags'], pointsSelector: selector([1]) });
    const { extra: _extra, tags: _tags, ...rest } = PAYLOADS[1]!;
    expect(await read(1)).toEqual(rest);

    await client.api('points').clearPayload({ collectionName: 'g_plain', wait: true, points: selector([3]) });
    expect(await read(3)).toEqual({});
  });

  it('creates and deletes field indexes', async () => {
    const r = await client.api('points').createFieldIndex({ collectionName: 'g_plain', wait: true, fieldName: 'city', fieldType: FieldType.FieldTypeKeyword });
    expect(r.result?.status).toBe(UpdateStatus.Completed);
    await client.api('points').createFieldIndex({
      collectionName: 'g_plain',
      wait: true,
      fieldName: 'n',
      fieldType: FieldType.FieldTypeInteger,
      fieldIndexParams: { indexParams: { case: 'integerIndexParams', value: { lookup: true, range: true } } },
    });
    let info = (await client.api('collections').get({ collectionName: 'g_plain' })).result!;
    expect(info.payloadSchema.city?.dataType).toBe(PayloadSchemaType.Keyword);
    expect(info.payloadSchema.n?.dataType).toBe(PayloadSchemaType.Integer);
    const filtered = await client.api('points').count({ collectionName: 'g_plain', filter: { must: [cond.keyword('city', 'Berlin')] } });
    expect(filtered.result?.count).toBe(1n);

    await client.api('points').deleteFieldIndex({ collectionName: 'g_plain', wait: true, fieldName: 'city' });
    info = (await client.api('collections').get({ collectionName: 'g_plain' })).result!;
    expect(info.payloadSchema.city).toBeUndefined();
    expect(info.payloadSchema.n).toBeDefined();
  });

  it('works with named vectors', async () => {
    await client.api('points').upsert({
      collectionName: 'g_named',
      wait: true,
      points: [
        { id: id(1), vectors: vectors({ image: [0, 0, 0], text: [1, 0] }), payload: payload({ k: 'one' }) },
        { id: id(2), vectors: vectors({ image: [3, 4, 0], text: [0, 1] }), payload: payload({ k: 'two' }) },
        { id: id(UUID), vectors: vectors({ image: [1, 1, 1] }) },
      ],
    });
    const euclid = await client.api('points').search({ collectionName: 'g_named', vectorName: 'image', vector: [0, 0, 0], limit: 3n });
    expect(euclid.result.map(idOf)).toEqual([1, UUID, 2]);
    expect(euclid.result[2]!.score).toBeCloseTo(5, 5);
    const cosine = await client.api('points').query({
      collectionName: 'g_named',
      using: 'text',
      query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: [0, 2] } } } } },
      limit: 1n,
      withVectors: { selectorOptions: { case: 'include', value: { names: ['text'] } } },
    });
    expect(cosine.result.map(idOf)).toEqual([2]);
    expect(vectorsOf(cosine.result[0]!)).toEqual({ text: [0, 1] });
    const all = await client.api('points').get({ collectionName: 'g_named', ids: [id(1)], withVectors: enable(true) });
    expect(vectorsOf(all.result[0]!)).toEqual({ image: [0, 0, 0], text: [1, 0] });
  });

  it('deletes points by id and by filter', async () => {
    await client.api('points').delete({ collectionName: 'g_plain', wait: true, points: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(UUID)] } } } });
    expect((await client.api('points').count({ collectionName: 'g_plain' })).result?.count).toBe(3n);
    const r = await client.api('points').delete({
      collectionName: 'g_plain',
      wait: true,
      points: { pointsSelectorOneOf: { case: 'filter', value: { must: [cond.range('n', { lte: 2 })] } } },
    });
    expect(r.result?.status).toBe(UpdateStatus.Completed);
    // Point 2's payload was overwritten above and has no `n` any more.
    const left = await client.api('points').scroll({ collectionName: 'g_plain', limit: 10 });
    expect(left.result.map(idOf)).toEqual([2, 3]);
  });

  it('deletes collections', async () => {
    expect((await client.api('collections').delete({ collectionName: 'g_named' })).result).toBe(true);
    expect((await client.api('collections').delete({ collectionName: 'g_never' })).result).toBe(false);
    for (let i = 0; i < 50; i++) {
      if ((await client.api('collections').list({})).collections.every((c) => c.name !== 'g_named')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await client.api('collections').list({})).collections.map((c) => c.name)).not.toContain('g_named');
  });
});
