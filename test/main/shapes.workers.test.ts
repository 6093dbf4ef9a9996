// Output shapes as Qdrant's clients read them: the unnamed vector is a bare array on every read
// path (REST and gRPC), `with_vectors` is an alias of `with_vector`, vector names a collection
// does not have are refused, a point without vectors shows `{}`; updates naming unknown points
// answer 404 (NOT_FOUND) with Qdrant's wording; GET / answers title, version and commit.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConnectErrorCode as Code, type QdrantClient as GrpcClient } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient, id, payload, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let rest: QdrantClient;
let grpc: GrpcClient;

// Dot keeps stored vectors as sent; halves are exact in float32, so arrays compare exactly.
const U = [
  { id: 1, vector: [1, 0, 0, 0.5] },
  { id: 2, vector: [0, 1, 0, 0.5] },
  { id: 3, vector: [0, 0, 1, 0.5] },
];
const Q = [1, 0.5, 0, 0];
const NOT_EXISTING = 'Wrong input: Not existing vector name error: x';

beforeAll(async () => {
  server = await startServer();
  rest = new QdrantClient({ url: server.url, checkCompatibility: false });
  grpc = grpcClient(server);
  await rest.createCollection('u', { vectors: { size: 4, distance: 'Dot' }, shard_number: 2 });
  await rest.upsert('u', { wait: true, points: U.map((p) => ({ ...p, payload: { n: p.id } })) });
  await rest.createCollection('n', { vectors: { a: { size: 2, distance: 'Dot' }, b: { size: 2, distance: 'Dot' } } });
  await rest.upsert('n', { wait: true, points: [1, 2].map((i) => ({ id: i, vector: { a: [i, 0], b: [0, i] } })) });
  // An unnamed dense vector beside a sparse one: the output depends on what the point holds.
  await rest.createCollection('mix', { vectors: { size: 2, distance: 'Dot' }, sparse_vectors: { sp: {} } });
  await rest.upsert('mix', {
    wait: true,
    points: [
      { id: 1, vector: { '': [1, 0], sp: { indices: [3], values: [0.5] } } },
      { id: 2, vector: [0, 1] },
    ],
  });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const ok = (r: { status: number; body: any }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
const refused = (r: { status: number; body: any }, status: number, message: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.status.error).toBe(message);
};
const vectorOf = (id: number) => U.find((p) => p.id === id)!.vector;
const enable = (value: boolean) => ({ selectorOptions: { case: 'enable' as const, value } });

describe('the unnamed vector is a bare array', () => {
  it('from scroll, retrieve and GET point, with true, [""] and the js client', async () => {
    for (const with_vector of [true, ['']]) {
      const scroll = ok(await call(server.url, 'POST', '/collections/u/points/scroll', { with_vector }));
      expect(scroll.points.map((p: { id: number; vector: unknown }) => [p.id, p.vector])).toEqual(U.map((p) => [p.id, p.vector]));
      const got = ok(await call(server.url, 'POST', '/collections/u/points', { ids: [2], with_vector }));
      expect(got[0].vector).toEqual(vectorOf(2));
    }
    expect(ok(await call(server.url, 'GET', '/collections/u/points/3')).vector).toEqual(vectorOf(3));
    expect((await rest.retrieve('u', { ids: [1], with_vector: true }))[0]!.vector).toEqual(vectorOf(1));
    expect((await rest.scroll('u', { with_vector: [''], limit: 1 })).points[0]!.vector).toEqual(vectorOf(1));
  });

  it('from search and search/batch', async () => {
    const hits = ok(await call(server.url, 'POST', '/collections/u/points/search', { vector: Q, limit: 2, with_vector: true }));
    expect(hits.map((h: { id: number; vector: unknown }) => h.vector)).toEqual([vectorOf(1), vectorOf(2)]);
    const named = ok(await call(server.url, 'POST', '/collections/u/points/search', { vector: { name: '', vector: Q }, limit: 1, with_vector: [''] }));
    expect(named[0].vector).toEqual(vectorOf(1));
    const batch = ok(await call(server.url, 'POST', '/collections/u/points/search/batch', { searches: [{ vector: Q, limit: 1, with_vector: true }] }));
    expect(batch[0][0].vector).toEqual(vectorOf(1));
  });

  it('from every kind of query and query/batch', async () => {
    const queries: Record<string, unknown>[] = [
      { query: Q },
      { query: Q, using: '' },
      { query: { nearest: Q } },
      { query: { nearest: Q, mmr: { diversity: 0.5, candidates_limit: 3 } } },
      { prefetch: [{ query: Q, limit: 3 }, { query: [0, 0, 1, 0], limit: 3 }], query: { fusion: 'rrf' } },
      { prefetch: { query: Q, limit: 3 }, query: Q },
      { query: 2 },
      { query: { order_by: 'n' } },
    ];
    await call(server.url, 'PUT', '/collections/u/index?wait=true', { field_name: 'n', field_schema: 'integer' });
    for (const q of queries) {
      for (const with_vector of [true, ['']]) {
        const res = ok(await call(server.url, 'POST', '/collections/u/points/query', { ...q, limit: 3, with_vector }));
        expect(res.points.length, JSON.stringify(q)).toBeGreaterThan(0);
        for (const p of res.points) expect(p.vector, JSON.stringify(q)).toEqual(vectorOf(p.id));
      }
    }
    const viaClient = await rest.query('u', { query: Q, limit: 1, with_vector: true });
    expect(viaClient.points[0]!.vector).toEqual(vectorOf(1));
    const batch = await rest.queryBatch('u', { searches: [{ query: Q, limit: 1, with_vector: true }, { query: 3, limit: 1, with_vector: [''] }] });
    expect(batch.map((b) => b.points[0]!.vector)).toEqual([vectorOf(1), vectorOf(1)]);
  });

  it('over gRPC as VectorsOutput.vector, not a named map', async () => {
    const expectBare = (v: { vectorsOptions: { case?: string | undefined; value?: unknown } } | undefined, want: number[]) => {
      expect(v?.vectorsOptions.case).toBe('vector');
      const out = v!.vectorsOptions.value as { vector: { case: string; value: { data: number[] } } };
      expect(out.vector.case).toBe('dense');
      expect(out.vector.value.data).toEqual(want);
    };
    const points = grpc.api('points');
    const got = await points.get({ collectionName: 'u', ids: [id(2)], withVectors: enable(true) });
    expectBare(got.result[0]!.vectors, vectorOf(2));
    const scroll = await points.scroll({ collectionName: 'u', limit: 1, withVectors: { selectorOptions: { case: 'include', value: { names: [''] } } } });
    expectBare(scroll.result[0]!.vectors, vectorOf(1));
    const search = await points.search({ collectionName: 'u', vector: Q, limit: 1n, withVectors: enable(true) });
    expectBare(search.result[0]!.vectors, vectorOf(1));
    const query = await points.query({
      collectionName: 'u',
      query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: Q } } } } },
      limit: 1n,
      withVectors: enable(true),
    });
    expectBare(query.result[0]!.vectors, vectorOf(1));
  });

  it('beside a sparse vector: bare only when the unnamed vector is all the point holds or all that is asked', async () => {
    const all = ok(await call(server.url, 'POST', '/collections/mix/points', { ids: [1, 2], with_vector: true }));
    expect(all).toEqual([
      { id: 1, payload: {}, vector: { '': [1, 0], sp: { indices: [3], values: [0.5] } } },
      { id: 2, payload: {}, vector: [0, 1] },
    ]);
    const dense = ok(await call(server.url, 'POST', '/collections/mix/points', { ids: [1], with_vector: [''] }));
    expect(dense[0].vector).toEqual([1, 0]);
    const sparse = ok(await call(server.url, 'POST', '/collections/mix/points', { ids: [1], with_vector: ['sp'] }));
    expect(sparse[0].vector).toEqual({ sp: { indices: [3], values: [0.5] } });
  });
});

describe('with_vectors, the alias of with_vector', () => {
  it('is read by retrieve, scroll, search, search/batch, query and query/batch', async () => {
    const body = { with_vectors: true, with_payload: false };
    expect(ok(await call(server.url, 'POST', '/collections/u/points', { ids: [1], ...body }))).toEqual([{ id: 1, vector: vectorOf(1) }]);
    expect(ok(await call(server.url, 'POST', '/collections/u/points/scroll', { limit: 1, ...body })).points).toEqual([{ id: 1, vector: vectorOf(1) }]);
    expect(ok(await call(server.url, 'POST', '/collections/u/points/search', { vector: Q, limit: 1, ...body }))[0].vector).toEqual(vectorOf(1));
    const sb = ok(await call(server.url, 'POST', '/collections/u/points/search/batch', { searches: [{ vector: Q, limit: 1, ...body }] }));
    expect(sb[0][0].vector).toEqual(vectorOf(1));
    expect(ok(await call(server.url, 'POST', '/collections/u/points/query', { query: Q, limit: 1, ...body })).points[0].vector).toEqual(vectorOf(1));
    const qb = ok(await call(server.url, 'POST', '/collections/u/points/query/batch', { searches: [{ query: Q, limit: 1, ...body }] }));
    expect(qb[0].points[0].vector).toEqual(vectorOf(1));
    const names = ok(await call(server.url, 'POST', '/collections/n/points', { ids: [1], with_vectors: ['b'] }));
    expect(names[0].vector).toEqual({ b: [0, 1] });
  });

  it('given together with with_vector is refused, as a field given twice', async () => {
    refused(await call(server.url, 'POST', '/collections/u/points/scroll', { with_vector: true, with_vectors: true }), 400, 'duplicate field `with_vector`');
    refused(await call(server.url, 'POST', '/collections/u/points/query', { query: Q, with_vector: false, with_vectors: true }), 400, 'duplicate field `with_vector`');
  });

  it('must be a boolean or a list of names', async () => {
    const r = await call(server.url, 'POST', '/collections/u/points/scroll', { with_vectors: 'yes' });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toContain('with_vectors');
  });
});

describe('a vector name the collection does not have', () => {
  it('is refused on every read path, unnamed and named collections alike', async () => {
    for (const c of ['u', 'n']) {
      const q = c === 'u' ? Q : [1, 0];
      const using = c === 'u' ? {} : { using: 'a' };
      refused(await call(server.url, 'POST', `/collections/${c}/points`, { ids: [1], with_vector: ['x'] }), 400, NOT_EXISTING);
      refused(await call(server.url, 'POST', `/collections/${c}/points/scroll`, { with_vectors: ['x'] }), 400, NOT_EXISTING);
      const vector = c === 'u' ? q : { name: 'a', vector: q };
      refused(await call(server.url, 'POST', `/collections/${c}/points/search`, { vector, limit: 1, with_vector: ['x'] }), 400, NOT_EXISTING);
      refused(await call(server.url, 'POST', `/collections/${c}/points/query`, { query: q, ...using, with_vector: ['x'] }), 400, NOT_EXISTING);
    }
    // A named collection has no unnamed vector.
    refused(await call(server.url, 'POST', '/collections/n/points', { ids: [1], with_vector: [''] }), 400, 'Wrong input: Not existing vector name error: ');
    // Through the js client, and through gRPC as INVALID_ARGUMENT with the same words.
    await expect(rest.scroll('n', { with_vector: ['a', 'x'] })).rejects.toMatchObject({ status: 400 });
    const f = await failure(grpc.api('points').get({ collectionName: 'n', ids: [id(1)], withVectors: { selectorOptions: { case: 'include', value: { names: ['x'] } } } }));
    expect(f).toEqual({ code: Code.InvalidArgument, message: NOT_EXISTING });
  });
});

describe('a point without vectors', () => {
  it('shows vector {} over REST and an empty named map over gRPC, in named and unnamed collections', async () => {
    await rest.createCollection('bare_u', { vectors: { size: 2, distance: 'Dot' } });
    await rest.upsert('bare_u', { wait: true, points: [{ id: 1, vector: [1, 1] }, { id: 2, vector: [2, 2] }] });
    await rest.createCollection('bare_n', { vectors: { a: { size: 2, distance: 'Dot' }, b: { size: 2, distance: 'Dot' } } });
    await rest.upsert('bare_n', { wait: true, points: [{ id: 1, vector: { a: [1, 1], b: [1, 1] } }] });
    await rest.deleteVectors('bare_u', { wait: true, points: [1], vector: [''] });
    await rest.deleteVectors('bare_n', { wait: true, points: [1], vector: ['a', 'b'] });

    for (const c of ['bare_u', 'bare_n']) {
      expect(ok(await call(server.url, 'GET', `/collections/${c}/points/1`)).vector, c).toEqual({});
      expect((await rest.retrieve(c, { ids: [1], with_vector: true }))[0]!.vector, c).toEqual({});
      const scroll = await rest.scroll(c, { with_vector: true, limit: 1 });
      expect(scroll.points[0]!.vector, c).toEqual({});
      // Not asked for, no vector field at all.
      expect((await rest.retrieve(c, { ids: [1] }))[0]!.vector, c).toBeUndefined();
      const g = await grpc.api('points').get({ collectionName: c, ids: [id(1)], withVectors: enable(true) });
      expect(g.result[0]!.vectors?.vectorsOptions.case, c).toBe('vectors');
      expect((g.result[0]!.vectors?.vectorsOptions.value as { vectors: object }).vectors, c).toEqual({});
    }
    // Only the named vector asked for and missing: {} too; the other point keeps its bare array.
    expect(ok(await call(server.url, 'POST', '/collections/bare_n/points', { ids: [1], with_vector: ['a'] }))[0].vector).toEqual({});
    expect(ok(await call(server.url, 'POST', '/collections/bare_u/points', { ids: [1, 2], with_vector: true })).map((p: { vector: unknown }) => p.vector)).toEqual([{}, [2, 2]]);
    // An empty names list selects nothing, which is an empty map as in Qdrant.
    expect(ok(await call(server.url, 'POST', '/collections/u/points', { ids: [1], with_vector: [] }))[0].vector).toEqual({});
  });
});

describe('updates naming unknown points', () => {
  const MISSING = 'Not found: No point with id 99 found';

  it('answer 404 over REST for update vectors and every payload update by ids, changing nothing', async () => {
    const cases: [string, string, unknown][] = [
      ['PUT', '/points/vectors', { points: [{ id: 99, vector: [1, 1, 1, 1] }] }],
      ['PUT', '/points/vectors', { points: [{ id: 1, vector: [9, 9, 9, 9] }, { id: 99, vector: [1, 1, 1, 1] }] }],
      ['POST', '/points/payload', { points: [1, 99], payload: { changed: true } }],
      ['PUT', '/points/payload', { points: [99, 1], payload: { changed: true } }],
      ['POST', '/points/payload/delete', { points: [1, 99], keys: ['n'] }],
      ['POST', '/points/payload/clear', { points: [1, 99] }],
    ];
    for (const [method, path, body] of cases) {
      for (const wait of ['?wait=true', '']) refused(await call(server.url, method, `/collections/u${path}${wait}`, body), 404, MISSING);
    }
    const uuid = '5b6b1f0e-1b0a-4b0a-8b0a-1b0a1b0a1b0a';
    refused(await call(server.url, 'POST', '/collections/u/points/payload?wait=true', { points: [uuid], payload: {} }), 404, `Not found: No point with id ${uuid} found`);
    await expect(rest.setPayload('u', { wait: true, points: [99], payload: { a: 1 } })).rejects.toMatchObject({ status: 404 });
    await expect(rest.updateVectors('u', { wait: true, points: [{ id: 99, vector: [1, 1, 1, 1] }] })).rejects.toMatchObject({ status: 404 });
    // Point 1 is as it was.
    expect(ok(await call(server.url, 'GET', '/collections/u/points/1'))).toEqual({ id: 1, payload: { n: 1 }, vector: vectorOf(1) });
  });

  it('answer NOT_FOUND over gRPC with the same words', async () => {
    const points = grpc.api('points');
    const missing = { pointsSelectorOneOf: { case: 'points' as const, value: { ids: [id(99)] } } };
    const calls = [
      points.updateVectors({ collectionName: 'u', wait: true, points: [{ id: id(99), vectors: vectors([1, 1, 1, 1]) }] }),
      points.setPayload({ collectionName: 'u', wait: true, payload: payload({ a: 1 }), pointsSelector: missing }),
      points.overwritePayload({ collectionName: 'u', wait: true, payload: payload({ a: 1 }), pointsSelector: missing }),
      points.deletePayload({ collectionName: 'u', wait: true, keys: ['n'], pointsSelector: missing }),
      points.clearPayload({ collectionName: 'u', wait: true, points: missing }),
    ];
    for (const c of calls) expect(await failure(c)).toEqual({ code: Code.NotFound, message: MISSING });
  });

  it('delete vectors skips ids it does not have, as Qdrant, and deletes from the ones it has', async () => {
    await rest.createCollection('dv', { vectors: { a: { size: 2, distance: 'Dot' }, b: { size: 2, distance: 'Dot' } } });
    await rest.upsert('dv', { wait: true, points: [{ id: 1, vector: { a: [1, 1], b: [2, 2] } }] });
    const r = ok(await call(server.url, 'POST', '/collections/dv/points/vectors/delete?wait=true', { points: [99, 1], vector: ['a'] }));
    expect(r.status).toBe('completed');
    expect((await rest.retrieve('dv', { ids: [1], with_vector: true }))[0]!.vector).toEqual({ b: [2, 2] });
    const g = await grpc.api('points').deleteVectors({
      collectionName: 'dv',
      wait: true,
      pointsSelector: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(98)] } } },
      vectors: { names: ['b'] },
    });
    expect(g.result?.status).toBeDefined();
    expect((await rest.retrieve('dv', { ids: [1], with_vector: true }))[0]!.vector).toEqual({ b: [2, 2] });
  });
});

describe('GET /', () => {
  it('answers exactly title, version and commit, the commit of the build', async () => {
    const r = await fetch(`${server.url}/`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['commit', 'title', 'version']);
    expect(body.title).toBe('quiver - vector search engine');
    expect(body.version).toBe('1.19.0');
    expect(body.commit).toMatch(/^[0-9a-f]{40}$/);
    const root = resolve(import.meta.dirname, '..', '..');
    expect(body.commit).toBe((JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8')) as { commit: string }).commit);
    let head: string | null = null;
    try {
      head = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      // No git here: the build wrote forty zeros, checked by build-info.test.ts.
    }
    // The build may predate the last commit of this checkout; it is a commit of it either way.
    if (head !== null && body.commit !== '0'.repeat(40)) {
      expect(execFileSync('git', ['-C', root, 'cat-file', '-t', body.commit as string], { encoding: 'utf8' }).trim()).toBe('commit');
    }
  });

  it('matches the gRPC health check', async () => {
    const h = await grpc.api('service').healthCheck({});
    const r = await call(server.url, 'GET', '/');
    expect({ title: h.title, version: h.version, commit: h.commit }).toEqual(r.body);
  });
});
