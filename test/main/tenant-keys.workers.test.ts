// Tenant-bound API keys against the real server (real worker threads, LMDB, hnswlib), through
// plain fetch, the official REST client and the official gRPC client: tenant acme's key tries
// every read path against tenant beta's points and every write path on them. Reads never show a
// beta point; writes never change one (the whole collection is compared after each refused or
// skipped write); refused writes answer 403 naming the rule. A scoped key's query cannot read
// another collection through lookup_from.

import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeader, bearer, createAdmin, createKey, expectDataError, login, setEnabled } from '../helpers/auth.js';
import { grpcClient, id, idOf, payload, vectors } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const ACME = { must: [{ key: 'tenant', match: { value: 'acme' } }] };
const A = [1, 2, 3, 4, 5, 6];
const B = [101, 102, 103, 104, 105, 106];
const vec = (i: number): number[] => [Math.cos(i), Math.sin(i), 0.5, (i % 7) / 7];

let server: TestServer;
let base: string;
let admin: Record<string, string>;
let acme: Record<string, string>;
let acmeKey = '';
let rule = '';

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  base = server.url;
  await createAdmin(base);
  const jwt = await login(base);
  admin = bearer(jwt);
  for (const name of ['tt', 'secret']) {
    expect((await call(base, 'PUT', `/collections/${name}`, { vectors: { size: 4, distance: 'Cosine' } }, admin)).status).toBe(200);
  }
  await call(base, 'PUT', '/collections/tt/index?wait=true', { field_name: 'tenant', field_schema: { type: 'keyword', is_tenant: true } }, admin);
  await call(base, 'PUT', '/collections/tt/index?wait=true', { field_name: 'n', field_schema: 'integer' }, admin);
  const points = [...A.map((i) => ({ id: i, vector: vec(i), payload: { tenant: 'acme', n: i, tag: 'x' } })), ...B.map((i) => ({ id: i, vector: vec(i), payload: { tenant: 'beta', n: i, tag: 'x' } }))];
  expect((await call(base, 'PUT', '/collections/tt/points?wait=true', { points }, admin)).status).toBe(200);
  expect((await call(base, 'PUT', '/collections/secret/points?wait=true', { points: [{ id: 1, vector: vec(1), payload: { s: 1 } }] }, admin)).status).toBe(200);
  await setEnabled(base, jwt, true);
  const k = await createKey(base, jwt, { scope: [{ collection: 'tt', permission: 'read,write', filter: ACME }] });
  acmeKey = k.api_key;
  acme = apiKeyHeader(acmeKey);
  rule = `the tenant filter of API key ${k.id} on "tt": ${JSON.stringify(ACME)}`;
});

afterAll(async () => {
  if (server === undefined) return;
  await server.stop();
  removeDir(server.dataDir);
});

/** Every point of tt as the admin sees it, ordered by id. */
async function everything(): Promise<unknown[]> {
  const r = await call(base, 'POST', '/collections/tt/points/scroll', { limit: 1000, with_payload: true, with_vector: true }, admin);
  expect(r.status).toBe(200);
  return r.body.result.points as unknown[];
}

/** Ids anywhere in a result: records' and hits' `id`, matrix pairs' `a`/`b`, offsets' `ids`. */
function idsIn(v: unknown, out: number[] = []): number[] {
  if (Array.isArray(v)) for (const e of v) idsIn(e, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, e] of Object.entries(v)) {
      if ((k === 'id' || k === 'a' || k === 'b') && typeof e === 'number') out.push(e);
      else if (k === 'ids' && Array.isArray(e)) out.push(...(e as number[]));
      else idsIn(e, out);
    }
  }
  return out;
}

const C = '/collections/tt';

describe('reads through a bound key see only its tenant', () => {
  const reads: [string, string, unknown][] = [
    ['search', `${C}/points/search`, { vector: vec(101), limit: 20 }],
    ['search batch', `${C}/points/search/batch`, { searches: [{ vector: vec(102), limit: 20 }, { vector: vec(1), limit: 20, filter: { must: [{ key: 'tenant', match: { value: 'beta' } }] } }] }],
    ['query', `${C}/points/query`, { query: vec(103), limit: 20 }],
    ['query with prefetch', `${C}/points/query`, { prefetch: [{ query: vec(104), limit: 20 }, { filter: { must: [{ key: 'tenant', match: { value: 'beta' } }] }, query: vec(104), limit: 20 }], query: { fusion: 'rrf' }, limit: 20 }],
    ['query batch', `${C}/points/query/batch`, { searches: [{ query: vec(105), limit: 20 }] }],
    ['query by beta point id', `${C}/points/query`, { query: 101, limit: 20 }],
    ['recommend by ids', `${C}/points/query`, { query: { recommend: { positive: [1, 2], negative: [3] } }, limit: 20 }],
    ['recommend by a beta id', `${C}/points/query`, { query: { recommend: { positive: [1, 101] } }, limit: 20 }],
    ['discover by ids', `${C}/points/query`, { query: { discover: { target: 2, context: [{ positive: 3, negative: 4 }] } }, limit: 20 }],
    ['discover by a beta id', `${C}/points/query`, { query: { discover: { target: 2, context: [{ positive: 3, negative: 103 }] } }, limit: 20 }],
    ['scroll', `${C}/points/scroll`, { limit: 100 }],
    ['scroll ordered', `${C}/points/scroll`, { limit: 100, order_by: 'n' }],
    ['retrieve', `${C}/points`, { ids: [1, 101, 102] }],
    ['facet', `${C}/facet`, { key: 'tenant' }],
    ['matrix pairs', `${C}/points/search/matrix/pairs`, { sample: 12, limit: 3 }],
    ['matrix offsets', `${C}/points/search/matrix/offsets`, { sample: 12, limit: 3 }],
  ];

  it.each(reads)('%s', async (_name, path, body) => {
    const r = await call(base, 'POST', path, body, acme);
    // An example by a beta id is as missing as any unknown id.
    if (_name.includes('beta')) {
      expectDataError(r, 404, /^Not found: No point with id 10[13] found$/);
      return;
    }
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ids = idsIn(r.body.result);
    for (const i of ids) expect(A, `${_name} showed point ${i}`).toContain(i);
    if (_name === 'facet') expect(r.body.result.hits).toEqual([{ value: 'acme', count: A.length }]);
    if (_name !== 'facet') expect(ids.length).toBeGreaterThan(0);
  });

  it('get point and count', async () => {
    expectDataError(await call(base, 'GET', `${C}/points/101`, undefined, acme), 404);
    expect((await call(base, 'GET', `${C}/points/1`, undefined, acme)).status).toBe(200);
    expect((await call(base, 'POST', `${C}/points/count`, { exact: true }, acme)).body.result.count).toBe(A.length);
    expect((await call(base, 'POST', `${C}/points/count`, { exact: false }, acme)).body.result.count).toBe(A.length);
  });

  it('the official clients see the same', async () => {
    const rest = new QdrantClient({ url: base, apiKey: acmeKey, checkCompatibility: false });
    const { points } = await rest.scroll('tt', { limit: 100 });
    expect(points.map((p) => p.id).sort((a, b) => Number(a) - Number(b))).toEqual(A);
    expect((await rest.count('tt', { exact: true })).count).toBe(A.length);
    const grpc = grpcClient(server, { apiKey: acmeKey });
    const hits = await grpc.api('points').search({ collectionName: 'tt', vector: vec(101), limit: 20n });
    expect(hits.result.map(idOf).sort((a, b) => Number(a) - Number(b))).toEqual(A);
    const got = await grpc.api('points').get({ collectionName: 'tt', ids: [id(1), id(101)] });
    expect(got.result.map(idOf)).toEqual([1]);
  });

  it('a scoped key reads no other collection through lookup_from', async () => {
    expectDataError(
      await call(base, 'POST', `${C}/points/query`, { query: { recommend: { positive: [1] } }, lookup_from: { collection: 'secret' }, limit: 3 }, acme),
      403,
      'Forbidden: this credential has no access to collection "secret"',
    );
    // The admin can, so the request itself is good.
    expect((await call(base, 'POST', `${C}/points/query`, { query: { recommend: { positive: [1] } }, lookup_from: { collection: 'secret' }, limit: 3 }, admin)).status).toBe(200);
  });
});

describe('writes through a bound key keep to its tenant', () => {
  it('refused writes answer 403 naming the rule and change nothing', async () => {
    const before = await everything();
    const refused: [string, string, string, unknown, RegExp][] = [
      ['upsert into beta', 'PUT', `${C}/points?wait=true`, { points: [{ id: 500, vector: vec(500), payload: { tenant: 'beta' } }] }, /^Forbidden: point 500 does not match /],
      ['upsert without tenant', 'PUT', `${C}/points?wait=true`, { points: [{ id: 501, vector: vec(501), payload: { n: 1 } }] }, /^Forbidden: point 501 does not match /],
      ['overwrite a beta id', 'PUT', `${C}/points?wait=true`, { points: [{ id: 101, vector: vec(1), payload: { tenant: 'acme' } }] }, /^Forbidden: point 101 belongs outside /],
      ['set payload moving a point out', 'POST', `${C}/points/payload?wait=true`, { payload: { tenant: 'beta' }, points: [1] }, /^Forbidden: the change would take point 1 outside /],
      ['overwrite payload dropping the tenant', 'PUT', `${C}/points/payload?wait=true`, { payload: { n: 9 }, points: [2] }, /^Forbidden: the change would take point 2 outside /],
      ['delete the tenant key', 'POST', `${C}/points/payload/delete?wait=true`, { keys: ['tenant'], points: [3] }, /^Forbidden: the change would take point 3 outside /],
      ['clear payload', 'POST', `${C}/points/payload/clear?wait=true`, { points: [4] }, /^Forbidden: the change would take point 4 outside /],
      ['a tenant key holding a list', 'PUT', `${C}/points?wait=true`, { points: [{ id: 503, vector: vec(503), payload: { tenant: ['acme', 'beta'] } }] }, /^Forbidden: point 503 would hold a list at "tenant", which /],
      ['a payload change making it a list', 'POST', `${C}/points/payload?wait=true`, { payload: { tenant: ['acme', 'beta'] }, points: [1] }, /^Forbidden: point 1 would hold a list at "tenant", which /],
      ['batch with one bad op', 'POST', `${C}/points/batch?wait=true`, { operations: [{ upsert: { points: [{ id: 502, vector: vec(502), payload: { tenant: 'beta' } }] } }] }, /^Batch operation 0 \(upsert\) failed: Forbidden: point 502 does not match /],
    ];
    for (const [name, method, path, body, message] of refused) {
      const r = await call(base, method, path, body, acme);
      expectDataError(r, 403, message);
      expect(r.body.status.error, name).toContain(rule);
      expect(await everything(), name).toEqual(before);
    }
    // update_only skips another tenant's id as it skips a missing one: it tells nothing.
    expect((await call(base, 'PUT', `${C}/points?wait=true`, { points: [{ id: 101, vector: vec(1), payload: { tenant: 'acme' } }], update_mode: 'update_only' }, acme)).status).toBe(200);
    expect((await call(base, 'PUT', `${C}/points?wait=true`, { points: [{ id: 4242, vector: vec(1), payload: { tenant: 'acme' } }], update_mode: 'update_only' }, acme)).status).toBe(200);
    // Another tenant's points are invisible to a change by id: as missing ones.
    expectDataError(await call(base, 'PUT', `${C}/points/vectors?wait=true`, { points: [{ id: 101, vector: vec(9) }] }, acme), 404);
    expectDataError(await call(base, 'POST', `${C}/points/payload?wait=true`, { payload: { tag: 'y' }, points: [101] }, acme), 404);
    expect(await everything()).toEqual(before);
  });

  it('deletes and changes by filter or id touch only the tenant', async () => {
    const betaBefore = (await everything()).filter((p) => B.includes((p as { id: number }).id));
    const ok = async (method: string, path: string, body: unknown) => {
      const r = await call(base, method, path, body, acme);
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
    };
    await ok('POST', `${C}/points/payload?wait=true`, { payload: { tag: 'y' }, filter: { must: [{ key: 'tag', match: { value: 'x' } }] } });
    await ok('POST', `${C}/points/vectors/delete?wait=true`, { vector: [''], points: [101, 5] });
    await ok('POST', `${C}/points/delete?wait=true`, { points: [102, 6] });
    await ok('POST', `${C}/points/delete?wait=true`, { filter: { must: [{ key: 'n', range: { gte: 100 } }] } });
    await ok('PUT', `${C}/points?wait=true`, { points: [{ id: 600, vector: vec(600), payload: { tenant: 'acme' } }] });
    const after = await everything();
    expect(after.filter((p) => B.includes((p as { id: number }).id))).toEqual(betaBefore);
    const mine = after.filter((p) => !B.includes((p as { id: number }).id)) as { id: number; payload: { tag?: string } }[];
    expect(mine.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 600]);
    expect(mine.filter((p) => p.id !== 600).every((p) => p.payload.tag === 'y')).toBe(true);
  });

  it('through gRPC: a refused upsert is PERMISSION_DENIED naming the rule, and nothing is written', async () => {
    const before = await everything();
    const grpc = grpcClient(server, { apiKey: acmeKey });
    await expect(
      grpc.api('points').upsert({ collectionName: 'tt', wait: true, points: [{ id: id(700), vectors: vectors(vec(700)), payload: payload({ tenant: 'beta' }) }] }),
    ).rejects.toMatchObject({ code: Code.PermissionDenied, rawMessage: expect.stringContaining(rule) });
    await grpc.api('points').delete({ collectionName: 'tt', wait: true, points: { pointsSelectorOneOf: { case: 'points', value: { ids: [id(103)] } } } });
    expect(await everything()).toEqual(before);
  });

  it('is_tenant is kept on the tenant field index and shown', async () => {
    const info = await call(base, 'GET', '/collections/tt', undefined, acme);
    expect(info.body.result.payload_schema.tenant).toMatchObject({ data_type: 'keyword', params: { type: 'keyword', is_tenant: true } });
  });

  it('may not change the collection itself', async () => {
    expectDataError(await call(base, 'DELETE', '/collections/tt', undefined, acme), 403, 'Forbidden: changing collection "tt" itself is not allowed through a tenant-bound credential');
    expectDataError(await call(base, 'PUT', `${C}/index`, { field_name: 'n', field_schema: 'integer' }, acme), 403, /itself is not allowed/);
  });
});
