// Auth state survives restarts: the auth switch, the admin, access tokens (and their deletion and
// rotation), the JWT secret, and SERVICE_JWT_SECRET's override, which is persisted for later
// restarts without it. Also: kill -9 right after an acknowledged change, start-up bootstrap from
// SERVICE_ADMIN_PASSWORD, and start-up refusals of bad auth settings.

import { jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, OTHER_PASSWORD, apiKeyHeader, bearer, createAdmin, createKey, expectDataError, login, setEnabled } from '../helpers/auth.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const dataDir = tempDataDir();
const running: TestServer[] = [];
const secrets = new Set<string>([ADMIN_PASSWORD, OTHER_PASSWORD]);
const SECRET_A = 'secret-A-0123456789-0123456789-0123456789';
const SECRET_B = 'secret-B-0123456789-0123456789-0123456789';
secrets.add(SECRET_A);
secrets.add(SECRET_B);

async function start(env: Record<string, string> = {}, dir = dataDir): Promise<TestServer> {
  const s = await startServer({ dataDir: dir, shards: 1, env });
  running.push(s);
  return s;
}

afterAll(async () => {
  for (const s of running) await s.stop('SIGKILL');
  removeDir(dataDir);
});

function keep<T extends string>(secret: T): T {
  secrets.add(secret);
  return secret;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('auth state across restarts', () => {
  let jwt = '';
  let rw = { id: 0, api_key: '' };
  let deleted = { id: 0, api_key: '' };
  let rotatedOld = '';
  let rotatedNew = '';
  let lastId = 0;

  it('sets up admin, auth switch and tokens, then stops', async () => {
    const s = await start();
    await createAdmin(s.url, ADMIN_PASSWORD);
    jwt = keep(await login(s.url, ADMIN_PASSWORD));
    await setEnabled(s.url, jwt, true);
    rw = await createKey(s.url, jwt, { name: 'rw', permission: 'read,write' });
    keep(rw.api_key);
    deleted = await createKey(s.url, jwt, { name: 'gone', permission: 'read' });
    keep(deleted.api_key);
    expect((await call(s.url, 'DELETE', `/auth/api_key/${deleted.id}`, undefined, bearer(jwt))).status).toBe(200);
    const r = await createKey(s.url, jwt, { name: 'rot', permission: 'read', will_expire: true, expires_in_seconds: 3600 });
    rotatedOld = keep(r.api_key);
    const rot = await call(s.url, 'POST', `/auth/api_key/${r.id}/rotate`, undefined, bearer(jwt));
    rotatedNew = keep(rot.body.api_key as string);
    lastId = r.id;
    expect(await s.stop('SIGTERM')).toBe(0);
  });

  it('after a restart: auth still enabled, JWT still valid, tokens as they were', async () => {
    const s = await start();
    expectDataError(await call(s.url, 'GET', '/collections'), 401);
    const list = await call(s.url, 'GET', '/auth/api_keys', undefined, bearer(jwt));
    expect(list.status).toBe(200);
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(['rw', 'rot']);
    expect(list.body[1]).toMatchObject({ will_expire: true, permission: 'read' });
    expect((await call(s.url, 'PUT', '/collections/kept', { vectors: { size: 2, distance: 'Dot' } }, apiKeyHeader(rw.api_key))).status).toBe(200);
    expect((await call(s.url, 'GET', '/collections', undefined, apiKeyHeader(rotatedNew))).status).toBe(200);
    expectDataError(await call(s.url, 'GET', '/collections', undefined, apiKeyHeader(rotatedOld)), 401);
    expectDataError(await call(s.url, 'GET', '/collections', undefined, apiKeyHeader(deleted.api_key)), 401);
    // The admin's password persisted; ids keep growing.
    jwt = keep(await login(s.url, ADMIN_PASSWORD));
    const next = await createKey(s.url, jwt, { name: 'after', permission: 'read' });
    keep(next.api_key);
    expect(next.id).toBeGreaterThan(lastId);
    await s.stop('SIGTERM');
  });

  it('an acknowledged change survives kill -9', async () => {
    const s = await start();
    const k = await createKey(s.url, jwt, { name: 'crash', permission: 'write' });
    keep(k.api_key);
    expect((await call(s.url, 'POST', '/auth/admin/reset-password', { password: OTHER_PASSWORD }, bearer(jwt))).status).toBe(200);
    await s.stop('SIGKILL');
    const s2 = await start();
    expect((await call(s2.url, 'PUT', '/collections/crash', { vectors: { size: 2, distance: 'Dot' } }, apiKeyHeader(k.api_key))).status).toBe(200);
    // The reset persisted: the old JWT stays revoked and only the new password logs in.
    expectDataError(await call(s2.url, 'GET', '/collections', undefined, bearer(jwt)), 401, /revoked/);
    expect((await call(s2.url, 'POST', '/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(401);
    jwt = keep(await login(s2.url, OTHER_PASSWORD));
    // Disabling persists too.
    await setEnabled(s2.url, jwt, false);
    await s2.stop('SIGKILL');
    const s3 = await start();
    expect((await call(s3.url, 'GET', '/collections')).status).toBe(200);
    await setEnabled(s3.url, jwt, true);
    await s3.stop('SIGTERM');
  });
});

describe('SERVICE_JWT_SECRET', () => {
  let jwtA = '';

  it('overrides the persisted secret: earlier JWTs fail, new ones are signed with it', async () => {
    const before = keep(await (async () => {
      const s = await start();
      const t = await login(s.url, OTHER_PASSWORD);
      await s.stop('SIGTERM');
      return t;
    })());
    const s = await start({ SERVICE_JWT_SECRET: SECRET_A });
    expectDataError(await call(s.url, 'GET', '/collections', undefined, bearer(before)), 401);
    jwtA = keep(await login(s.url, OTHER_PASSWORD));
    const { payload } = await jwtVerify(jwtA, enc(SECRET_A), { algorithms: ['HS256'] });
    expect(payload).toMatchObject({ sub: 'admin', role: 'admin' });
    expect((await call(s.url, 'GET', '/collections', undefined, bearer(jwtA))).status).toBe(200);
    await s.stop('SIGTERM');
  });

  it('is persisted: a restart without the variable keeps it', async () => {
    const s = await start();
    expect((await call(s.url, 'GET', '/collections', undefined, bearer(jwtA))).status).toBe(200);
    const t = keep(await login(s.url, OTHER_PASSWORD));
    await jwtVerify(t, enc(SECRET_A), { algorithms: ['HS256'] });
    await s.stop('SIGTERM');
  });

  it('a new value replaces it again', async () => {
    const s = await start({ SERVICE_JWT_SECRET: SECRET_B });
    expectDataError(await call(s.url, 'GET', '/collections', undefined, bearer(jwtA)), 401);
    const t = keep(await login(s.url, OTHER_PASSWORD));
    await jwtVerify(t, enc(SECRET_B), { algorithms: ['HS256'] });
    await expect(jwtVerify(t, enc(SECRET_A), { algorithms: ['HS256'] })).rejects.toThrow();
    await s.stop('SIGTERM');
  });

  it('shorter than 256 bits stops start-up with a message naming the variable', async () => {
    const dir = tempDataDir();
    const err = await startServer({ dataDir: dir, shards: 1, env: { SERVICE_JWT_SECRET: 'too-short' } }).catch((e: unknown) => e);
    removeDir(dir);
    expect(String(err)).toMatch(/exited with 2/);
    expect(String(err)).toMatch(/SERVICE_JWT_SECRET.*256 bits/);
    expect(String(err)).not.toContain('too-short');
  });
});

describe('SERVICE_ADMIN_PASSWORD', () => {
  it('creates the admin at first start, and never overwrites it later', async () => {
    const dir = tempDataDir();
    try {
      const s1 = await start({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD }, dir);
      // Bootstrap without a credential is over.
      expect((await call(s1.url, 'POST', '/auth/admin', { password: OTHER_PASSWORD })).status).toBe(401);
      keep(await login(s1.url, ADMIN_PASSWORD));
      await s1.stop('SIGTERM');
      const s2 = await start({ SERVICE_ADMIN_PASSWORD: OTHER_PASSWORD }, dir);
      expect((await call(s2.url, 'POST', '/auth/login', { username: 'admin', password: OTHER_PASSWORD })).status).toBe(401);
      keep(await login(s2.url, ADMIN_PASSWORD));
      await s2.stop('SIGTERM');
    } finally {
      removeDir(dir);
    }
  });

  it('against the password policy stops start-up', async () => {
    const dir = tempDataDir();
    const err = await startServer({ dataDir: dir, shards: 1, env: { SERVICE_ADMIN_PASSWORD: 'password' } }).catch((e: unknown) => e);
    removeDir(dir);
    expect(String(err)).toMatch(/exited with 2/);
    expect(String(err)).toMatch(/SERVICE_ADMIN_PASSWORD.*12 to 256 characters/);
  });
});

describe('logs', () => {
  it('of every server above hold no password, key, secret or JWT', () => {
    const text = running.flatMap((s) => s.logs).join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const s of secrets) expect(text.includes(s), `a secret (${s.slice(0, 6)}...) is in the logs`).toBe(false);
    expect(text).not.toMatch(/qvk_[A-Za-z0-9_-]{43}/);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
  });
});
