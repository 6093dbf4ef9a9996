// The auth endpoints against the real server, one describe per endpoint, every error status:
// bootstrap, login, the auth switch, access tokens (create, list, delete, rotate, expiry), the
// password reset, the envelopes of data and auth endpoints, refusal before the upload, the
// official REST client with apiKey, and logs free of secrets. The tests of one server run in order.

import { request } from 'node:http';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  OTHER_PASSWORD,
  apiKeyHeader,
  bearer,
  createKey,
  expectAuthError,
  expectDataError,
  expectSuccess,
  login,
  setEnabled,
} from '../helpers/auth.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

const DISABLED = 'API key management API requires auth_enabled=true';
const MISSING = 'Must provide an API key or an Authorization bearer token';
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let server: TestServer;
let base: string;
/** Every secret the tests see; none may appear in the server's logs. */
const secrets = new Set<string>([ADMIN_PASSWORD, OTHER_PASSWORD]);
let jwt = '';
const keys: Record<string, { id: number; api_key: string }> = {};

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  base = server.url;
});

afterAll(async () => {
  if (server === undefined) return;
  await server.stop();
  removeDir(server.dataDir);
});

function remember<T extends { api_key?: unknown; token?: unknown }>(body: T): T {
  if (typeof body.api_key === 'string') secrets.add(body.api_key);
  if (typeof body.token === 'string') secrets.add(body.token);
  return body;
}

async function freshJwt(password = ADMIN_PASSWORD): Promise<string> {
  const t = await login(base, password);
  secrets.add(t);
  return t;
}

describe('POST /auth/admin (bootstrap)', () => {
  it('starts with auth disabled: data endpoints open, no admin to log in as', async () => {
    expect((await call(base, 'GET', '/collections')).status).toBe(200);
    expectAuthError(await call(base, 'POST', '/auth/login', { username: 'admin', password: ADMIN_PASSWORD }), 401, 'Invalid username or password');
  });

  it('400 for a bad body, stating the password rule', async () => {
    expectAuthError(await call(base, 'POST', '/auth/admin', {}), 400, /password/);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: 12345678901234 }), 400, /password/);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: ADMIN_PASSWORD, role: 'root' }), 400);
    expectAuthError(await call(base, 'POST', '/auth/admin', '{"password": '), 400, /JSON/);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: 'short1A!' }), 400, /12 to 256 characters.*at least three of/);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: 'alllowercaseletters' }), 400, /at least three of: lowercase letters, uppercase letters, digits, symbols/);
    const plain = await fetch(`${base}/auth/admin`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: ADMIN_PASSWORD });
    expectAuthError({ status: plain.status, body: await plain.json() }, 415);
  });

  it('creates the admin without a credential while none exists', async () => {
    expectSuccess(await call(base, 'POST', '/auth/admin', { password: ADMIN_PASSWORD }));
  });

  it('afterwards needs an admin credential: 401 without or with a bad one', async () => {
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: OTHER_PASSWORD }), 401, MISSING);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: OTHER_PASSWORD }, bearer('garbage')), 401);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: OTHER_PASSWORD }, { authorization: 'Basic YWRtaW46eA==' }), 401);
    // The password did not change.
    jwt = await freshJwt();
  });
});

describe('POST /auth/login', () => {
  it('200 with an admin JWT', async () => {
    const r = await call(base, 'POST', '/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(r.status).toBe(200);
    remember(r.body);
    expect(r.body).toEqual({ status: 'success', message: expect.any(String), token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const claims = JSON.parse(Buffer.from(String(r.body.token).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'admin', role: 'admin', pwd_epoch: expect.any(Number), jti: expect.any(String) });
    expect((claims['exp'] as number) - (claims['iat'] as number)).toBe(3600);
  });

  it('401 for a wrong password or user, 400 for a bad body', async () => {
    expectAuthError(await call(base, 'POST', '/auth/login', { username: 'admin', password: OTHER_PASSWORD }), 401, 'Invalid username or password');
    expectAuthError(await call(base, 'POST', '/auth/login', { username: 'root', password: ADMIN_PASSWORD }), 401, 'Invalid username or password');
    expectAuthError(await call(base, 'POST', '/auth/login', { password: ADMIN_PASSWORD }), 400, /username/);
    expectAuthError(await call(base, 'POST', '/auth/login', { username: 'admin' }), 400, /password/);
    expectAuthError(await call(base, 'POST', '/auth/login', { username: 'admin', password: 'x'.repeat(70_000) }), 413, /too large/);
  });
});

describe('PATCH /auth/enabled', () => {
  it('401 without or with a bad credential, 400 for a bad body', async () => {
    expectAuthError(await call(base, 'PATCH', '/auth/enabled', { enabled: true }), 401, MISSING);
    expectAuthError(await call(base, 'PATCH', '/auth/enabled', { enabled: true }, bearer('x.y.z')), 401);
    expectAuthError(await call(base, 'PATCH', '/auth/enabled', { enabled: 'yes' }, bearer(jwt)), 400, /enabled/);
    expectAuthError(await call(base, 'PATCH', '/auth/enabled', {}, bearer(jwt)), 400, /enabled/);
  });

  it('200 with the data envelope and the state after the update', async () => {
    const r = await call(base, 'PATCH', '/auth/enabled', { enabled: false }, bearer(jwt));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ usage: null, time: expect.any(Number), status: 'ok', result: false });
  });

  it('token management answers 403 with the spec message while auth is disabled, whoever asks', async () => {
    for (const headers of [{}, bearer(jwt), bearer('garbage')]) {
      expectAuthError(await call(base, 'POST', '/auth/api_key', { name: 'x', permission: 'read' }, headers), 403, DISABLED);
      expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, headers), 403, DISABLED);
      expectAuthError(await call(base, 'DELETE', '/auth/api_key/1', undefined, headers), 403, DISABLED);
      expectAuthError(await call(base, 'POST', '/auth/api_key/1/rotate', undefined, headers), 403, DISABLED);
    }
  });

  it('enables auth: data endpoints then need a credential, health endpoints stay open', async () => {
    const r = await call(base, 'PATCH', '/auth/enabled', { enabled: true }, bearer(jwt));
    expect(r.body.result).toBe(true);
    expectDataError(await call(base, 'GET', '/collections'), 401, MISSING);
    expect((await call(base, 'GET', '/collections', undefined, bearer(jwt))).status).toBe(200);
    for (const p of ['/', '/healthz', '/livez', '/readyz']) expect((await call(base, 'GET', p)).status, p).toBe(200);
  });
});

describe('POST /auth/api_key', () => {
  it('200: the docs/interface.md section 4.1 shape, canonical permission, the raw key once', async () => {
    const r = await call(base, 'POST', '/auth/api_key', { name: 'reader', description: 'dashboards', permission: 'read' }, bearer(jwt));
    expect(r.status).toBe(200);
    remember(r.body);
    expect(Object.keys(r.body)).toEqual(['id', 'name', 'description', 'api_key', 'created_at', 'expired_at', 'will_expire', 'permission']);
    expect(r.body).toMatchObject({ id: expect.any(Number), name: 'reader', description: 'dashboards', will_expire: false, expired_at: null, permission: 'read' });
    expect(r.body.created_at).toMatch(RFC3339_UTC);
    expect(Math.abs(Date.parse(r.body.created_at) - Date.now())).toBeLessThan(60_000);
    expect(r.body.api_key).toMatch(/^qvk_[A-Za-z0-9_-]{43}$/);
    keys['read'] = r.body;
    keys['write'] = remember(await createKey(base, jwt, { name: 'writer', permission: 'write' }));
    keys['rw'] = remember(await createKey(base, jwt, { name: 'rw', permission: 'write,read' }));
    keys['admin'] = remember(await createKey(base, jwt, { name: 'admin', permission: 'admin' }));
    keys['all'] = remember(await createKey(base, jwt, { name: 'all', permission: 'admin,write,read' }));
    const e = remember(await createKey(base, jwt, { name: 'exp', permission: 'read', will_expire: true, expires_in_seconds: 3600 }));
    expect(e['will_expire']).toBe(true);
    expect(e['expired_at']).toMatch(RFC3339_UTC);
    expect(Date.parse(String(e['expired_at'])) - Date.parse(String(e['created_at']))).toBe(3_600_000);
    expect((await createKey(base, jwt, { name: 'rw2', permission: 'read,write' }))['permission']).toBe('read,write');
  });

  it('an admin access token may create tokens too', async () => {
    remember(await createKey(base, keys['admin']!.api_key, { name: 'by-key', permission: 'read' }));
  });

  it('400 for bad bodies', async () => {
    const bad: [unknown, RegExp][] = [
      [{ permission: 'read' }, /name/],
      [{ name: 'x' }, /permission/],
      [{ name: 'x', permission: 'read,read' }, /permission must be a comma-separated set of read, write, admin/],
      [{ name: 'x', permission: 'read, write' }, /permission/],
      [{ name: 'x', permission: 'root' }, /permission/],
      [{ name: 'x', permission: '' }, /permission/],
      [{ name: 'x', permission: 'read', will_expire: true }, /expires_in_seconds is required when will_expire is true/],
      [{ name: 'x', permission: 'read', will_expire: true, expires_in_seconds: 0 }, /expires_in_seconds must be/],
      [{ name: 'x', permission: 'read', will_expire: true, expires_in_seconds: 400_000_000 }, /10 years/],
      [{ name: 'x', permission: 'read', will_expire: true, expires_in_seconds: 1.5 }, /expires_in_seconds/],
      [{ name: 'x', permission: 'read', will_expire: 'yes' }, /will_expire/],
      [{ name: '', permission: 'read' }, /name/],
      [{ name: 'x', permission: 'read', scope: 'all' }, /./],
    ];
    for (const [body, msg] of bad) expectAuthError(await call(base, 'POST', '/auth/api_key', body, bearer(jwt)), 400, msg);
  });

  it('401 without or with a bad credential, 403 without the admin bit', async () => {
    const body = { name: 'x', permission: 'read' };
    expectAuthError(await call(base, 'POST', '/auth/api_key', body), 401, MISSING);
    expectAuthError(await call(base, 'POST', '/auth/api_key', body, bearer('qvk_' + 'A'.repeat(43))), 401);
    for (const k of ['read', 'write', 'rw']) {
      expectAuthError(await call(base, 'POST', '/auth/api_key', body, apiKeyHeader(keys[k]!.api_key)), 403, /admin permission/);
    }
  });
});

describe('GET /auth/api_keys', () => {
  it('200: every token, without the key', async () => {
    const r = await call(base, 'GET', '/auth/api_keys', undefined, { ...bearer(jwt), accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body.length).toBeGreaterThanOrEqual(7);
    for (const t of r.body) {
      expect(Object.keys(t)).toEqual(['id', 'name', 'description', 'created_at', 'expired_at', 'will_expire', 'permission']);
    }
    const text = JSON.stringify(r.body);
    for (const k of Object.values(keys)) expect(text).not.toContain(k.api_key);
    expect(r.body.find((t: { id: number }) => t.id === keys['all']!.id).permission).toBe('read,write,admin');
  });

  it('401 and 403', async () => {
    expectAuthError(await call(base, 'GET', '/auth/api_keys'), 401, MISSING);
    expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, apiKeyHeader(keys['rw']!.api_key)), 403);
    expect((await call(base, 'GET', '/auth/api_keys', undefined, apiKeyHeader(keys['admin']!.api_key))).status).toBe(200);
  });
});

describe('DELETE /auth/api_key/{token_id}', () => {
  it('200 deletes; the key stops working; 404 after', async () => {
    const k = remember(await createKey(base, jwt, { name: 'doomed', permission: 'read' }));
    expect((await call(base, 'GET', '/collections', undefined, apiKeyHeader(k.api_key))).status).toBe(200);
    expectSuccess(await call(base, 'DELETE', `/auth/api_key/${k.id}`, undefined, bearer(jwt)));
    expectDataError(await call(base, 'GET', '/collections', undefined, apiKeyHeader(k.api_key)), 401);
    expectAuthError(await call(base, 'DELETE', `/auth/api_key/${k.id}`, undefined, bearer(jwt)), 404, `Access token not found: ${k.id}`);
  });

  it('400 for a bad id, 404 for an unknown one, 401 and 403', async () => {
    expectAuthError(await call(base, 'DELETE', '/auth/api_key/abc', undefined, bearer(jwt)), 400, /token_id/);
    expectAuthError(await call(base, 'DELETE', '/auth/api_key/-1', undefined, bearer(jwt)), 400, /token_id/);
    expectAuthError(await call(base, 'DELETE', '/auth/api_key/987654', undefined, bearer(jwt)), 404);
    expectAuthError(await call(base, 'DELETE', '/auth/api_key/987654'), 401);
    expectAuthError(await call(base, 'DELETE', `/auth/api_key/${keys['read']!.id}`, undefined, apiKeyHeader(keys['read']!.api_key)), 403);
  });
});

describe('POST /auth/api_key/{token_id}/rotate', () => {
  it('200: same id, name and permission, a new key; the old key stops at once', async () => {
    const old = remember(await createKey(base, jwt, { name: 'rotor', description: 'd', permission: 'write,read' }));
    const r = await call(base, 'POST', `/auth/api_key/${old.id}/rotate`, undefined, bearer(jwt));
    expect(r.status).toBe(200);
    remember(r.body);
    expect(Object.keys(r.body)).toEqual(['id', 'name', 'description', 'api_key', 'created_at', 'expired_at', 'will_expire', 'permission']);
    expect(r.body).toMatchObject({ id: old.id, name: 'rotor', description: 'd', permission: 'read,write', created_at: old['created_at'], expired_at: null });
    expect(r.body.api_key).not.toBe(old.api_key);
    expectDataError(await call(base, 'GET', '/collections', undefined, apiKeyHeader(old.api_key)), 401);
    expect((await call(base, 'GET', '/collections', undefined, apiKeyHeader(r.body.api_key))).status).toBe(200);
  });

  it('404 for an unknown id, 400 for a bad one, 401 and 403', async () => {
    expectAuthError(await call(base, 'POST', '/auth/api_key/987654/rotate', undefined, bearer(jwt)), 404);
    expectAuthError(await call(base, 'POST', '/auth/api_key/x/rotate', undefined, bearer(jwt)), 400);
    expectAuthError(await call(base, 'POST', '/auth/api_key/1/rotate'), 401);
    expectAuthError(await call(base, 'POST', `/auth/api_key/${keys['write']!.id}/rotate`, undefined, apiKeyHeader(keys['write']!.api_key)), 403);
  });
});

describe('access token expiry', () => {
  it('a token with expires_in_seconds: 1 works, then is refused with 401', async () => {
    const k = remember(await createKey(base, jwt, { name: 'short', permission: 'read', will_expire: true, expires_in_seconds: 1 }));
    const created = Date.now();
    const first = await call(base, 'GET', '/collections', undefined, apiKeyHeader(k.api_key));
    if (Date.now() - created < 900) expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_200));
    expectDataError(await call(base, 'GET', '/collections', undefined, apiKeyHeader(k.api_key)), 401, 'Invalid API key or JWT');
    expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, bearer(k.api_key)), 401);
    // Listed until deleted, with its expiry.
    const list = await call(base, 'GET', '/auth/api_keys', undefined, bearer(jwt));
    expect(list.body.find((t: { id: number }) => t.id === k.id)).toMatchObject({ will_expire: true });
  });
});

describe('enforcement on data endpoints', () => {
  it('bits decide: read, write, admin independent; 401/403 in the data envelope', async () => {
    const coll = { vectors: { size: 2, distance: 'Dot' } };
    expectDataError(await call(base, 'PUT', '/collections/c1', coll, apiKeyHeader(keys['read']!.api_key)), 403, /write permission/);
    expectDataError(await call(base, 'PUT', '/collections/c1', coll, apiKeyHeader(keys['admin']!.api_key)), 403, /write permission/);
    expect((await call(base, 'PUT', '/collections/c1', coll, apiKeyHeader(keys['write']!.api_key))).status).toBe(200);
    const pts = { points: [{ id: 1, vector: [1, 0] }] };
    expect((await call(base, 'PUT', '/collections/c1/points?wait=true', pts, bearer(keys['rw']!.api_key))).status).toBe(200);
    expectDataError(await call(base, 'POST', '/collections/c1/points/search', { vector: [1, 0], limit: 1 }, apiKeyHeader(keys['write']!.api_key)), 403, /read permission/);
    expectDataError(await call(base, 'POST', '/collections/c1/points/search', { vector: [1, 0], limit: 1 }, apiKeyHeader(keys['admin']!.api_key)), 403);
    expect((await call(base, 'POST', '/collections/c1/points/search', { vector: [1, 0], limit: 1 }, apiKeyHeader(keys['read']!.api_key))).status).toBe(200);
    expectDataError(await call(base, 'POST', '/collections/c1/points/search', { vector: [1, 0], limit: 1 }), 401, MISSING);
    const res = await fetch(`${base}/collections`, { headers: bearer('garbage') });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="quiver"');
  });

  it('the two headers: either works, both must agree', async () => {
    const k = keys['read']!.api_key;
    expect((await call(base, 'GET', '/collections', undefined, { 'api-key': k, authorization: `Bearer ${k}` })).status).toBe(200);
    expectDataError(await call(base, 'GET', '/collections', undefined, { 'api-key': k, authorization: `Bearer ${keys['rw']!.api_key}` }), 401, /different credentials/);
    expect((await call(base, 'GET', '/collections', undefined, apiKeyHeader(jwt))).status).toBe(200);
  });

  it('an unknown route answers 401 without a credential, 404 with one', async () => {
    expectDataError(await call(base, 'GET', '/no/such/route'), 401);
    expectDataError(await call(base, 'GET', '/no/such/route', undefined, apiKeyHeader(keys['write']!.api_key)), 404);
  });

  it('refuses a read-only key before the upload: 403 arrives while the body is still being sent, then the server hangs up', async () => {
    const url = new URL(`${base}/collections/c1/points?wait=true`);
    const total = 1024 * 1024 * 1024;
    const t0 = Date.now();
    const result = await new Promise<{ status: number; sentAtResponse: number; sent: number; closedAfterMs: number }>((resolve) => {
      let sent = 0;
      let status = 0;
      let sentAtResponse = -1;
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'PUT', headers: { 'content-type': 'application/json', 'content-length': String(total), 'api-key': keys['read']!.api_key } },
        (res) => {
          status = res.statusCode ?? 0;
          sentAtResponse = sent;
          res.resume();
        },
      );
      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        clearInterval(pump);
        resolve({ status, sentAtResponse, sent, closedAfterMs: Date.now() - t0 });
      };
      req.on('error', finish);
      req.on('close', finish);
      req.write('{"points": [');
      // A steady upload of about 12 MB/s, far from done when the server answers.
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = setInterval(() => {
        if (req.destroyed || Date.now() - t0 > 15_000) return void req.destroy();
        sent += chunk.length;
        req.write(chunk);
      }, 5);
    });
    expect(result.status).toBe(403);
    expect(result.sentAtResponse).toBeGreaterThanOrEqual(0);
    expect(result.sentAtResponse).toBeLessThan(4 * 1024 * 1024);
    // The server closed the connection after its linger time, long before the upload could end.
    expect(result.closedAfterMs).toBeLessThan(10_000);
    expect(result.sent).toBeLessThan(total);
    // The server keeps serving.
    expect((await call(base, 'GET', '/collections', undefined, apiKeyHeader(keys['read']!.api_key))).status).toBe(200);
  });
});

describe('POST /auth/admin/reset-password', () => {
  it('401 without a credential, 403 without the admin bit, 400 for a weak password', async () => {
    expectAuthError(await call(base, 'POST', '/auth/admin/reset-password', { password: OTHER_PASSWORD }), 401, MISSING);
    expectAuthError(await call(base, 'POST', '/auth/admin/reset-password', { password: OTHER_PASSWORD }, apiKeyHeader(keys['rw']!.api_key)), 403);
    expectAuthError(await call(base, 'POST', '/auth/admin/reset-password', { password: 'weakweakweak' }, bearer(jwt)), 400, /at least three of/);
    expectAuthError(await call(base, 'POST', '/auth/admin/reset-password', {}, bearer(jwt)), 400, /password/);
  });

  it('200: earlier JWTs stop working, the new password logs in, access tokens are untouched', async () => {
    const before = jwt;
    expectSuccess(await call(base, 'POST', '/auth/admin/reset-password', { password: OTHER_PASSWORD }, bearer(jwt)));
    expectDataError(await call(base, 'GET', '/collections', undefined, bearer(before)), 401, /revoked/);
    expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, bearer(before)), 401, /revoked/);
    expectAuthError(await call(base, 'POST', '/auth/login', { username: 'admin', password: ADMIN_PASSWORD }), 401);
    jwt = await freshJwt(OTHER_PASSWORD);
    expect((await call(base, 'GET', '/auth/api_keys', undefined, bearer(jwt))).status).toBe(200);
    expect((await call(base, 'GET', '/collections', undefined, apiKeyHeader(keys['read']!.api_key))).status).toBe(200);
  });

  it('an admin access token may reset the password', async () => {
    expectSuccess(await call(base, 'POST', '/auth/admin/reset-password', { password: ADMIN_PASSWORD }, apiKeyHeader(keys['admin']!.api_key)));
    expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, bearer(jwt)), 401, /revoked/);
    jwt = await freshJwt(ADMIN_PASSWORD);
  });

  it('POST /auth/admin with an admin credential sets the password the same way', async () => {
    const before = jwt;
    expectSuccess(await call(base, 'POST', '/auth/admin', { password: OTHER_PASSWORD }, bearer(jwt)));
    expectAuthError(await call(base, 'GET', '/auth/api_keys', undefined, bearer(before)), 401, /revoked/);
    jwt = await freshJwt(OTHER_PASSWORD);
    expectAuthError(await call(base, 'POST', '/auth/admin', { password: ADMIN_PASSWORD }, apiKeyHeader(keys['rw']!.api_key)), 403);
  });
});

describe('PATCH /auth/enabled takes an admin JWT only', () => {
  it('403 for access tokens, even with every bit', async () => {
    for (const k of ['all', 'admin', 'read']) {
      expectAuthError(await call(base, 'PATCH', '/auth/enabled', { enabled: false }, apiKeyHeader(keys[k]!.api_key)), 403, /admin JWT/);
    }
    expect((await call(base, 'GET', '/collections', undefined, bearer(jwt))).status).toBe(200);
  });
});

describe('the official REST client with apiKey', () => {
  it('works with a read+write key, and surfaces 403 and 401', async () => {
    const client = new QdrantClient({ url: base, apiKey: keys['rw']!.api_key, https: false, checkCompatibility: false });
    await client.createCollection('official', { vectors: { size: 3, distance: 'Cosine' } });
    await client.upsert('official', { wait: true, points: [{ id: 1, vector: [1, 0, 0], payload: { a: 1 } }, { id: 2, vector: [0, 1, 0] }] });
    const res = await client.query('official', { query: [1, 0.1, 0], limit: 1, with_payload: true });
    expect(res.points[0]).toMatchObject({ id: 1, payload: { a: 1 } });
    expect((await client.getCollections()).collections.map((c) => c.name)).toContain('official');

    const reader = new QdrantClient({ url: base, apiKey: keys['read']!.api_key, https: false, checkCompatibility: false });
    expect((await reader.count('official', { exact: true })).count).toBe(2);
    await expect(reader.upsert('official', { wait: true, points: [{ id: 3, vector: [0, 0, 1] }] })).rejects.toMatchObject({ status: 403 });
    const anonymous = new QdrantClient({ url: base, checkCompatibility: false });
    await expect(anonymous.getCollections()).rejects.toMatchObject({ status: 401 });
    const wrong = new QdrantClient({ url: base, apiKey: 'qvk_' + 'B'.repeat(43), https: false, checkCompatibility: false });
    await expect(wrong.getCollections()).rejects.toMatchObject({ status: 401 });
  });
});

describe('JWT lifetime', () => {
  it('an admin JWT expires after SERVICE_JWT_TTL_SECONDS', async () => {
    const s = await startServer({ shards: 1, env: { SERVICE_JWT_TTL_SECONDS: '3', SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD } });
    try {
      const r = await call(s.url, 'POST', '/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
      expect(r.body.expires_in).toBe(3);
      const t = r.body.token as string;
      // exp = iat + 3 with iat in whole seconds: valid for at least 2 s.
      await setEnabled(s.url, t, true);
      await new Promise((res) => setTimeout(res, 3_100));
      expectDataError(await call(s.url, 'GET', '/collections', undefined, bearer(t)), 401, 'JWT expired');
      expect(s.logs.join('\n')).not.toContain(ADMIN_PASSWORD);
      expect(s.logs.join('\n')).not.toContain(t);
    } finally {
      await s.stop();
      removeDir(s.dataDir);
    }
  });
});

describe('login rate limit', () => {
  it('429 with Retry-After after 10 failed logins from one address, the right password included', async () => {
    const s = await startServer({ shards: 1, env: { SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD } });
    try {
      for (let i = 0; i < 10; i++) {
        expectAuthError(await call(s.url, 'POST', '/auth/login', { username: 'admin', password: `Wrong-Password-${i}` }), 401);
      }
      for (const password of ['Wrong-Password-x', ADMIN_PASSWORD]) {
        const res = await fetch(`${s.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
        expectAuthError({ status: res.status, body: await res.json() }, 429, /Too many failed login attempts/);
        const retry = Number(res.headers.get('retry-after'));
        expect(retry).toBeGreaterThan(0);
        expect(retry).toBeLessThanOrEqual(60);
      }
      // Other endpoints are not affected.
      expect((await call(s.url, 'GET', '/collections')).status).toBe(200);
    } finally {
      await s.stop();
      removeDir(s.dataDir);
    }
  });
});

describe('logs', () => {
  it('never contain a password, a raw key or a JWT', async () => {
    // A failing request carrying secrets in headers and body, to be sure they would be logged if anything were.
    await call(base, 'POST', '/auth/login', { username: 'admin', password: 'Not-The-Password-1' }, bearer(keys['all']!.api_key));
    secrets.add('Not-The-Password-1');
    const text = server.logs.join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const s of secrets) expect(text.includes(s), `a secret (${s.slice(0, 6)}...) is in the logs`).toBe(false);
    expect(text).not.toMatch(/qvk_[A-Za-z0-9_-]{43}/);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
  });
});
