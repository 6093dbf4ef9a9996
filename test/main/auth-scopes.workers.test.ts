// Collection scopes on API keys and Qdrant's JWT access claims, against the real server through
// plain fetch and both official clients: what each credential may do on each collection, the
// filtered collection lists, the bad-input paths of scoped keys, narrowing a key at run time, and
// JWTs minted by an application with the server's secret (access r / m / per collection, exp,
// value_exists). The tests of one server run in order.

import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import * as grpcJs from '@grpc/grpc-js';
import { SignJWT } from 'jose';
import protobuf from 'protobufjs';
import { PROTO_DIR } from '../../src/shared/grpc/proto.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyHeader, bearer, createAdmin, createKey, expectAuthError, expectDataError, login, setEnabled } from '../helpers/auth.js';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const SECRET = 'scopes-test-secret-of-at-least-32-bytes!';
const V = [0.1, 0.2, 0.3, 0.4];

let server: TestServer;
let base: string;
let jwt = '';

beforeAll(async () => {
  server = await startServer({ shards: 2, env: { SERVICE_JWT_SECRET: SECRET } });
  base = server.url;
  await createAdmin(base);
  jwt = await login(base);
  for (const name of ['docs', 'acme_one', 'acme_two', 'other']) {
    const r = await call(base, 'PUT', `/collections/${name}`, { vectors: { size: 4, distance: 'Dot' } }, bearer(jwt));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const up = await call(base, 'PUT', `/collections/${name}/points?wait=true`, { points: [{ id: 1, vector: V, payload: { tenant: 'acme' } }] }, bearer(jwt));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
  }
  await setEnabled(base, jwt, true);
});

afterAll(async () => {
  if (server === undefined) return;
  await server.stop();
  removeDir(server.dataDir);
});

const search = (collection: string, h: Record<string, string>) => call(base, 'POST', `/collections/${collection}/points/search`, { vector: V, limit: 3 }, h);
const upsert = (collection: string, h: Record<string, string>, id = 2) =>
  call(base, 'PUT', `/collections/${collection}/points?wait=true`, { points: [{ id, vector: V, payload: { tenant: 'acme' } }] }, h);
const names = async (h: Record<string, string>): Promise<string[]> => {
  const r = await call(base, 'GET', '/collections', undefined, h);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.result.collections as { name: string }[]).map((c) => c.name).sort();
};

describe('creating a scoped key', () => {
  it('refuses bad scopes with 400 naming the entry, and nothing is created', async () => {
    const before = (await call(base, 'GET', '/auth/api_keys', undefined, bearer(jwt))).body.length as number;
    const bad = async (body: Record<string, unknown>, message: string | RegExp) =>
      expectAuthError(await call(base, 'POST', '/auth/api_key', { name: 'bad', ...body }, bearer(jwt)), 400, message);
    await bad({ scope: [] }, 'scope must name at least one collection; leave it out for a key over every collection');
    await bad({ scope: [{ collection: 'docs', permission: 'read,admin' }] }, "scope[0].permission: admin is not given per collection; give it in the key's own permission");
    await bad({ scope: [{ collection: 'docs', permission: 'rw' }] }, /^scope\[0\]\.permission: permission must be a comma-separated set/);
    await bad({ scope: [{ collection: 'docs', permission: 'read' }, { collection: 'docs', permission: 'write' }] }, 'scope[1].collection: "docs" is named twice');
    await bad({ scope: [{ collection: 'docs', permission: 'read', filter: { must: [{ key: 'tenant', matc: { value: 'a' } }] } }] }, /^Bad filter: scope\[0\]\.filter\.must\[0\]/);
    await bad({ scope: [{ collection: 'docs', permission: 'read', filter: { must: [{ has_id: [1] }] } }] }, 'scope[0].filter.must[0]: has_id cannot bind a tenant; use payload conditions');
    await bad({}, /^Invalid permission: /);
    await bad({ permission: '' }, /^Invalid permission: /);
    await bad({ scope: [{ collection: '', permission: 'read' }] }, /scope/);
    expect((await call(base, 'GET', '/auth/api_keys', undefined, bearer(jwt))).body).toHaveLength(before);
  });

  it('is listed with its scope, and rotation keeps it', async () => {
    const k = await createKey(base, jwt, { name: 'docs-reader', scope: [{ collection: 'docs', permission: 'read' }] });
    expect(k.permission).toBe('');
    expect(k.scope).toEqual([{ collection: 'docs', permission: 'read' }]);
    const listed = (await call(base, 'GET', '/auth/api_keys', undefined, bearer(jwt))).body.find((t: { id: number }) => t.id === k.id);
    expect(listed.scope).toEqual([{ collection: 'docs', permission: 'read' }]);
    const rotated = await call(base, 'POST', `/auth/api_key/${k.id}/rotate`, undefined, bearer(jwt));
    expect(rotated.body.scope).toEqual([{ collection: 'docs', permission: 'read' }]);
    expect((await search('docs', apiKeyHeader(rotated.body.api_key))).status).toBe(200);
    expect((await search('other', apiKeyHeader(rotated.body.api_key))).status).toBe(403);
  });

  it('an unscoped key shows no scope field, as before', async () => {
    const k = await createKey(base, jwt, { name: 'plain', permission: 'read' });
    expect(Object.keys(k)).not.toContain('scope');
  });
});

describe('what a scoped key may do', () => {
  it('reads only its collections, writes only where it has write, and lists only what it may read', async () => {
    const k = await createKey(base, jwt, { scope: [{ collection: 'docs', permission: 'read' }, { collection: 'acme_*', permission: 'read,write' }] });
    const h = apiKeyHeader(k.api_key);
    expect((await search('docs', h)).status).toBe(200);
    expect((await search('acme_two', h)).status).toBe(200);
    expectDataError(await search('other', h), 403, 'Forbidden: this credential has no access to collection "other"');
    expectDataError(await upsert('docs', h), 403, 'Forbidden: this credential lacks the write permission on collection "docs"');
    expect((await upsert('acme_one', h)).status).toBe(200);
    expect(await names(h)).toEqual(['acme_one', 'acme_two', 'docs']);
    // Outside collections it has no rights unless its own permission gives them.
    expectDataError(await call(base, 'GET', '/telemetry', undefined, h), 403, 'Forbidden: this access token lacks the read permission');
    // An unbound write scope manages its collections: create and delete one matching the pattern, not another.
    expect((await call(base, 'PUT', '/collections/acme_new', { vectors: { size: 4, distance: 'Dot' } }, h)).status).toBe(200);
    expect((await call(base, 'DELETE', '/collections/acme_new', undefined, h)).status).toBe(200);
    expectDataError(await call(base, 'PUT', '/collections/zzz', { vectors: { size: 4, distance: 'Dot' } }, h), 403, 'Forbidden: this credential has no access to collection "zzz"');
    expectDataError(await call(base, 'PUT', '/collections/docs/index', { field_name: 'tenant', field_schema: 'keyword' }, h), 403, /^Forbidden: changing collection "docs" itself needs manage access/);
  });

  it('its own permission covers the routes about no one collection', async () => {
    const k = await createKey(base, jwt, { permission: 'read', scope: [{ collection: 'docs', permission: 'read' }] });
    expect((await call(base, 'GET', '/telemetry', undefined, apiKeyHeader(k.api_key))).status).toBe(200);
    expect(k.permission).toBe('read');
  });

  it('works the same through the official REST client and the gRPC client', async () => {
    const k = await createKey(base, jwt, { scope: [{ collection: 'docs', permission: 'read' }] });
    const rest = new QdrantClient({ url: base, apiKey: k.api_key, checkCompatibility: false });
    expect((await rest.query('docs', { query: V, limit: 1 })).points.map((p) => p.id)).toEqual([1]);
    await expect(rest.query('other', { query: V, limit: 1 })).rejects.toMatchObject({ status: 403 });
    expect((await rest.getCollections()).collections.map((c) => c.name)).toEqual(['docs']);
    const grpc = grpcClient(server, { apiKey: k.api_key });
    const found = await grpc.api('points').search({ collectionName: 'docs', vector: V, limit: 1n });
    expect(found.result).toHaveLength(1);
    await expect(grpc.api('points').search({ collectionName: 'other', vector: V, limit: 1n })).rejects.toMatchObject({
      code: Code.PermissionDenied,
      rawMessage: 'Forbidden: this credential has no access to collection "other"',
    });
    await expect(grpc.api('collections').get({ collectionName: 'other' })).rejects.toMatchObject({ code: Code.PermissionDenied });
    await expect(grpc.api('collections').delete({ collectionName: 'docs' })).rejects.toMatchObject({ code: Code.PermissionDenied });
    expect((await grpc.api('collections').list({})).collections.map((c) => c.name)).toEqual(['docs']);
  });
});

describe('a scoped key cannot reach past its scope', () => {
  /** Upsert of point 77 into `collection`, encoded as the protos say, with `tail` appended raw. */
  function upsertBytes(collection: string, tail: Buffer): Buffer {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => `${PROTO_DIR}/${target}`;
    root.loadSync('qdrant.proto', { keepCase: true });
    const T = root.lookupType('qdrant.UpsertPoints');
    const msg = T.fromObject({ collection_name: collection, wait: true, points: [{ id: { num: 77 }, vectors: { vector: { data: V } } }] });
    return Buffer.concat([Buffer.from(T.encode(msg).finish()), tail]);
  }
  const rawUpsert = (bytes: Buffer, key: string): Promise<grpcJs.ServiceError | null> => {
    const client = new grpcJs.Client(`127.0.0.1:${server.grpcPort}`, grpcJs.credentials.createInsecure());
    const md = new grpcJs.Metadata();
    md.set('api-key', key);
    return new Promise((res) => client.makeUnaryRequest('/qdrant.Points/Upsert', (b: Buffer) => b, (b: Buffer) => b, bytes, md, (err) => {
      client.close();
      res(err);
    }));
  };
  const count = async (c: string) => (await call(base, 'POST', `/collections/${c}/points/count`, { exact: true }, bearer(jwt))).body.result.count as number;

  it('gRPC: a message naming a second collection in an odd encoding of field 1 is refused, and nothing is written there', async () => {
    const k = await createKey(base, jwt, { scope: [{ collection: 'acme_one', permission: 'read,write' }, { collection: 'docs', permission: 'read' }] });
    const before = await count('docs');
    const name = Buffer.from('docs');
    // Field 1 again under a tag of more than 32 bits (protobufjs reads it as field 1): the worker
    // finds a name the main thread did not decide on.
    const wide = await rawUpsert(upsertBytes('acme_one', Buffer.concat([Buffer.from([0x8a, 0x80, 0x80, 0x80, 0x10, name.length]), name])), k.api_key);
    expect(wide?.code, String(wide)).toBe(grpcJs.status.INVALID_ARGUMENT);
    expect(wide?.details).toBe('Malformed request message for /qdrant.Points/Upsert: its collection_name is not a plain field 1');
    // Field 1 as a varint whose bytes protobufjs reads as a string: the main thread reads no name, so a scoped key is refused there.
    const typed = await rawUpsert(upsertBytes('acme_one', Buffer.concat([Buffer.from([0x08, name.length]), name])), k.api_key);
    expect(typed?.code, String(typed)).toBe(grpcJs.status.PERMISSION_DENIED);
    // An unscoped key passes the main thread with it; the worker refuses it.
    const plain = await createKey(base, jwt, { permission: 'read,write' });
    const unscoped = await rawUpsert(upsertBytes('acme_one', Buffer.concat([Buffer.from([0x08, name.length]), name])), plain.api_key);
    expect(unscoped?.code, String(unscoped)).toBe(grpcJs.status.INVALID_ARGUMENT);
    expect(await count('docs')).toBe(before);
    // The same message without the tail is written: the refusal is about the tail.
    expect(await rawUpsert(upsertBytes('acme_one', Buffer.alloc(0)), k.api_key)).toBeNull();
  });

  it("lookup_from answers 403 for a collection outside the scope whether it exists or not", async () => {
    const k = await createKey(base, jwt, { scope: [{ collection: 'docs', permission: 'read' }] });
    const ask = (c: string) => call(base, 'POST', '/collections/docs/points/query', { query: 1, lookup_from: { collection: c }, limit: 1 }, apiKeyHeader(k.api_key));
    expectDataError(await ask('other'), 403, 'Forbidden: this credential has no access to collection "other"');
    expectDataError(await ask('nope'), 403, 'Forbidden: this credential has no access to collection "nope"');
  });

  it('a scoped key cannot hold admin (it could make itself a key over every collection)', async () => {
    const message = 'Invalid permission: a scoped key cannot hold admin (it could make keys over every collection)';
    expectAuthError(await call(base, 'POST', '/auth/api_key', { name: 'x', permission: 'admin', scope: [{ collection: 'docs', permission: 'read' }] }, bearer(jwt)), 400, message);
    const k = await createKey(base, jwt, { permission: 'read,admin' });
    expectAuthError(await call(base, 'PATCH', `/auth/api_key/${k.id}`, { scope: [{ collection: 'docs', permission: 'read' }] }, bearer(jwt)), 400, message);
  });
});

describe('PATCH /auth/api_key/{id}', () => {
  it('narrows a key at once: the next request is refused, the key itself unchanged', async () => {
    const k = await createKey(base, jwt, { permission: 'read,write' });
    const h = apiKeyHeader(k.api_key);
    expect((await search('other', h)).status).toBe(200);
    const r = await call(base, 'PATCH', `/auth/api_key/${k.id}`, { scope: [{ collection: 'docs', permission: 'read' }], permission: 'read' }, bearer(jwt));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: k.id, permission: 'read', scope: [{ collection: 'docs', permission: 'read' }] });
    expect(r.body.api_key).toBeUndefined();
    // A scoped key's own permission may be emptied: no rights outside its collections.
    const emptied = await call(base, 'PATCH', `/auth/api_key/${k.id}`, { permission: '' }, bearer(jwt));
    expect(emptied.body.permission).toBe('');
    expectDataError(await call(base, 'GET', '/telemetry', undefined, h), 403, 'Forbidden: this access token lacks the read permission');
    expectDataError(await search('other', h), 403, 'Forbidden: this credential has no access to collection "other"');
    expectDataError(await upsert('docs', h), 403, 'Forbidden: this credential lacks the write permission on collection "docs"');
    // scope null makes it a key over every collection again
    const back = await call(base, 'PATCH', `/auth/api_key/${k.id}`, { scope: null, permission: 'read,write' }, bearer(jwt));
    expect(back.body.scope).toBeUndefined();
    expect((await search('other', h)).status).toBe(200);
  });

  it('refuses bad changes with 400 and unknown ids with 404, leaving the key as it was', async () => {
    const k = await createKey(base, jwt, { scope: [{ collection: 'docs', permission: 'read' }] });
    expectAuthError(await call(base, 'PATCH', `/auth/api_key/${k.id}`, { scope: null }, bearer(jwt)), 400, /^Invalid permission: a key over every collection needs one/);
    expectAuthError(await call(base, 'PATCH', `/auth/api_key/${k.id}`, { permission: 'everything' }, bearer(jwt)), 400, /^Invalid permission/);
    expectAuthError(await call(base, 'PATCH', `/auth/api_key/${k.id}`, { nope: 1 }, bearer(jwt)), 400);
    expectAuthError(await call(base, 'PATCH', '/auth/api_key/987654', { name: 'x' }, bearer(jwt)), 404, 'Access token not found: 987654');
    expectAuthError(await call(base, 'PATCH', `/auth/api_key/${k.id}`, { name: 'x' }, apiKeyHeader(k.api_key)), 403);
    expect((await search('docs', apiKeyHeader(k.api_key))).status).toBe(200);
  });
});

async function qdrantJwt(claims: Record<string, unknown>, secret = SECRET): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

describe("JWTs with Qdrant's claims", () => {
  it('global "r" reads everything and changes nothing; "m" (and no access claim) may do everything', async () => {
    const r = bearer(await qdrantJwt({ access: 'r' }));
    expect((await search('other', r)).status).toBe(200);
    expectDataError(await upsert('other', r), 403, 'Forbidden: this access token lacks the write permission');
    expect(await names(r)).toEqual(['acme_one', 'acme_two', 'docs', 'other']);
    for (const claims of [{ access: 'm' }, {}]) {
      const m = bearer(await qdrantJwt(claims));
      expect((await upsert('other', m, 3)).status).toBe(200);
      expect((await call(base, 'PUT', '/collections/by_jwt', { vectors: { size: 4, distance: 'Dot' } }, m)).status).toBe(200);
      expect((await call(base, 'DELETE', '/collections/by_jwt', undefined, m)).status).toBe(200);
      // Quiver's own token administration stays with admins.
      expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, m), 403);
    }
  });

  it('per-collection "r" and "rw": names only, no collection changes, lists filtered', async () => {
    const t = await qdrantJwt({ access: [{ collection: 'docs', access: 'r' }, { collection: 'acme_one', access: 'rw' }] });
    const h = bearer(t);
    expect((await search('docs', h)).status).toBe(200);
    expectDataError(await upsert('docs', h), 403, 'Forbidden: this credential lacks the write permission on collection "docs"');
    expect((await upsert('acme_one', h, 4)).status).toBe(200);
    expectDataError(await search('acme_two', h), 403, 'Forbidden: this credential has no access to collection "acme_two"');
    expectDataError(await call(base, 'DELETE', '/collections/acme_one', undefined, h), 403, /^Forbidden: changing collection "acme_one" itself needs manage access/);
    expect(await names(h)).toEqual(['acme_one', 'docs']);
    const grpc = grpcClient(server, { apiKey: t });
    expect((await grpc.api('collections').list({})).collections.map((c) => c.name).sort()).toEqual(['acme_one', 'docs']);
    await expect(grpc.api('points').search({ collectionName: 'other', vector: V, limit: 1n })).rejects.toMatchObject({ code: Code.PermissionDenied });
  });

  it('exp is honoured, a token signed with another secret or with bad claims is refused (401)', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    expectDataError(await search('docs', bearer(await qdrantJwt({ access: 'r', exp: past }))), 401, 'JWT expired');
    expect((await search('docs', bearer(await qdrantJwt({ access: 'r', exp: past + 3600 })))).status).toBe(200);
    expectDataError(await search('docs', bearer(await qdrantJwt({ access: 'r' }, 'another-secret-of-at-least-32-bytes!!!'))), 401, 'Invalid JWT');
    expectDataError(await search('docs', bearer(await qdrantJwt({ access: 'w' }))), 401, 'Invalid JWT: access must be "r", "m" or a list of {collection, access}');
    expectDataError(await search('docs', bearer(await qdrantJwt({ access: [{ collection: 'docs', access: 'r', payload: { a: 1 } }] }))), 401, 'Invalid JWT: access[0] has fields other than collection and access');
  });

  it('value_exists: the token holds while a matching point exists', async () => {
    await call(base, 'PUT', '/collections/docs/points?wait=true', { points: [{ id: 50, vector: V, payload: { user: 'ann', active: true } }] }, bearer(jwt));
    const t = bearer(await qdrantJwt({ access: 'r', value_exists: { collection: 'docs', matches: [{ key: 'user', value: 'ann' }, { key: 'active', value: true }] } }));
    expect((await search('other', t)).status).toBe(200);
    await call(base, 'POST', '/collections/docs/points/payload?wait=true', { payload: { active: false }, points: [50] }, bearer(jwt));
    expectDataError(await search('other', t), 401, 'Invalid JWT: value_exists finds no matching point in collection "docs"');
    const missing = bearer(await qdrantJwt({ access: 'r', value_exists: { collection: 'nope', matches: [{ key: 'user', value: 'ann' }] } }));
    expectDataError(await search('other', missing), 401, 'Invalid JWT: value_exists finds no matching point in collection "nope"');
  });
});
