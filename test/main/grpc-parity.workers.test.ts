// The same scenario through REST and through gRPC gives the same results: points written
// through either read back identically, and searches, queries, counts and scrolls on the same
// collection answer the same ids, scores (within 1e-6) and payloads through both.

import { QdrantClient as RestClient } from '@qdrant/js-client-rest';
import { Distance, type QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cond, enable, grpcClient, id, idOf, jsonPayload, payload, vectors, vectorsOf, type Json } from '../helpers/grpc.js';
import { call, randomVectors, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

const N = 400;
const DIM = 16;
const data = randomVectors(N, DIM, 11);
const queries = randomVectors(6, DIM, 12);
const r = rng(13);
const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const ids: (number | string)[] = Array.from({ length: N }, (_, i) => (i % 4 === 3 ? uuid(i) : i + 1));
const payloads: Record<string, Json>[] = Array.from({ length: N }, (_, i) => ({
  group: i % 5,
  label: `l${i % 3}`,
  weight: Math.round(r() * 1000) / 8,
  tags: [`t${i % 2}`, `u${i % 7}`],
  nested: { level: { value: i, flag: i % 2 === 0 } },
  maybe: i % 6 === 0 ? null : 'set',
}));

let server: TestServer;
let grpc: QdrantClient;
let rest: RestClient;

beforeAll(async () => {
  server = await startServer();
  grpc = grpcClient(server);
  rest = new RestClient({ url: server.url, checkCompatibility: false });
  for (const name of ['via_rest', 'via_grpc']) await rest.createCollection(name, { vectors: { size: DIM, distance: 'Cosine' } });
  for (let i = 0; i < N; i += 100) {
    await rest.upsert('via_rest', {
      wait: true,
      points: ids.slice(i, i + 100).map((pid, j) => ({ id: pid, vector: data[i + j]!, payload: payloads[i + j]! })),
    });
    await grpc.api('points').upsert({
      collectionName: 'via_grpc',
      wait: true,
      points: ids.slice(i, i + 100).map((pid, j) => ({ id: id(pid), vectors: vectors(data[i + j]!), payload: payload(payloads[i + j]!) })),
    });
  }
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

interface Hit {
  id: number | string;
  score: number;
  payload: Json;
}

function sameHits(a: Hit[], b: Hit[]): void {
  expect(b.map((h) => h.id)).toEqual(a.map((h) => h.id));
  a.forEach((h, i) => expect(Math.abs(h.score - b[i]!.score)).toBeLessThan(1e-6));
  expect(b.map((h) => h.payload)).toEqual(a.map((h) => h.payload));
}

const grpcHits = (points: { id?: unknown; score: number; payload: Parameters<typeof jsonPayload>[0] }[]): Hit[] =>
  points.map((p) => ({ id: idOf(p as Parameters<typeof idOf>[0]), score: p.score, payload: jsonPayload(p.payload) }));
const restHits = (points: { id: number | string; score: number; payload?: Record<string, unknown> | null }[]): Hit[] =>
  points.map((p) => ({ id: p.id, score: p.score, payload: (p.payload ?? {}) as Json }));

describe('writes through REST and through gRPC', () => {
  it('store the same points', async () => {
    const a = await rest.retrieve('via_rest', { ids, with_payload: true, with_vector: true });
    const b = await rest.retrieve('via_grpc', { ids, with_payload: true, with_vector: true });
    expect(b).toEqual(a);
    expect(a).toHaveLength(N);
    const g = await grpc.api('points').get({ collectionName: 'via_rest', ids: ids.map(id), withPayload: enable(true), withVectors: enable(true) });
    // Both carry the stored float32 values: REST in their shortest decimal form, gRPC as floats.
    const f32 = (v: unknown): number[] => [...new Float32Array(v as number[])];
    expect(g.result.map((p) => ({ id: idOf(p), payload: jsonPayload(p.payload), vector: f32(vectorsOf(p)) }))).toEqual(
      a.map((p) => ({ id: p.id, payload: p.payload, vector: f32(p.vector) })),
    );
  });
});

describe('reads through REST and through gRPC', () => {
  const filter = { must: [{ key: 'group', match: { any: [1, 3] } }], must_not: [{ key: 'maybe', is_null: true }] };
  const grpcFilter = {
    must: [{ conditionOneOf: { case: 'field' as const, value: { key: 'group', match: { matchValue: { case: 'integers' as const, value: { integers: [1n, 3n] } } } } } }],
    mustNot: [{ conditionOneOf: { case: 'field' as const, value: { key: 'maybe', isNull: true } } }],
  };

  for (const exact of [false, true]) {
    it(`search (${exact ? 'exact' : 'hnsw'}) answers the same, with and without a filter`, async () => {
      for (const [qi, q] of queries.entries()) {
        for (const f of [false, true]) {
          const body = { vector: q, limit: 7, offset: qi % 2, with_payload: true, params: { exact }, ...(f ? { filter } : {}) };
          const a = await call(server.url, 'POST', '/collections/via_rest/points/search', body);
          expect(a.status).toBe(200);
          for (const coll of ['via_rest', 'via_grpc']) {
            const b = await grpc.api('points').search({
              collectionName: coll,
              vector: q,
              limit: 7n,
              offset: BigInt(qi % 2),
              withPayload: enable(true),
              params: { exact },
              ...(f ? { filter: grpcFilter } : {}),
            });
            if (coll === 'via_rest' || exact) sameHits(restHits(a.body.result), grpcHits(b.result));
          }
        }
      }
    });
  }

  it('query by vector and by point id answers the same', async () => {
    for (const q of queries) {
      const a = await rest.query('via_rest', { query: q, limit: 5, with_payload: true, filter });
      const b = await grpc.api('points').query({
        collectionName: 'via_rest',
        query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: q } } } } },
        limit: 5n,
        withPayload: enable(true),
        filter: grpcFilter,
      });
      sameHits(restHits(a.points as Parameters<typeof restHits>[0]), grpcHits(b.result));
    }
    const a = await rest.query('via_rest', { query: ids[3]!, limit: 4, with_payload: { include: ['label'] } });
    const b = await grpc.api('points').query({
      collectionName: 'via_rest',
      query: { variant: { case: 'nearest', value: { variant: { case: 'id', value: id(ids[3]!) } } } },
      limit: 4n,
      withPayload: { selectorOptions: { case: 'include', value: { fields: ['label'] } } },
    });
    sameHits(restHits(a.points as Parameters<typeof restHits>[0]), grpcHits(b.result));
  });

  it('count and scroll answer the same', async () => {
    const a = await rest.count('via_rest', { filter, exact: true });
    const b = await grpc.api('points').count({ collectionName: 'via_grpc', filter: grpcFilter, exact: true });
    expect(Number(b.result?.count)).toBe(a.count);

    let restOffset: number | string | null | undefined = undefined;
    let grpcOffset: ReturnType<typeof id> | undefined;
    for (let page = 0; page < 100; page++) {
      const ra = await rest.scroll('via_rest', { limit: 37, with_payload: true, filter: { must: [{ key: 'label', match: { value: 'l1' } }] }, ...(restOffset !== undefined ? { offset: restOffset } : {}) });
      const gb = await grpc.api('points').scroll({
        collectionName: 'via_grpc',
        limit: 37,
        withPayload: enable(true),
        filter: { must: [cond.keyword('label', 'l1')] },
        ...(grpcOffset ? { offset: grpcOffset } : {}),
      });
      expect(gb.result.map((p) => ({ id: idOf(p), payload: jsonPayload(p.payload) }))).toEqual(ra.points.map((p) => ({ id: p.id, payload: p.payload })));
      const next = ra.next_page_offset as number | string | null | undefined;
      expect(gb.nextPageOffset === undefined ? null : idOf({ id: gb.nextPageOffset })).toEqual(next ?? null);
      if (next === null || next === undefined) break;
      restOffset = next;
      grpcOffset = id(next);
    }
  });

  it('collection info answers the same', async () => {
    const a = await rest.getCollection('via_grpc');
    const b = (await grpc.api('collections').get({ collectionName: 'via_rest' })).result!;
    expect(Number(b.pointsCount)).toBe(a.points_count);
    const v = b.config!.params!.vectorsConfig!.config;
    expect(v.case === 'params' && Number(v.value.size)).toBe(DIM);
    expect(v.case === 'params' && v.value.distance).toBe(Distance.Cosine);
    expect(Number(b.config!.hnswConfig!.m)).toBe(a.config.hnsw_config.m);
  });
});
