// AuthService against a real LMDB environment in a temp dir, with an injected clock.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { ANONYMOUS, type AuthContext, type GetHeader } from '../../../src/main/auth/context.js';
import { AuthService, MAX_EXPIRES_IN_SECONDS, authorize, credentialOf, type AuthOptions } from '../../../src/main/auth/service.js';
import { ConfigError } from '../../../src/main/config.js';
import { openAuthDb, openDb, type QuiverDb } from '../../../src/shared/db.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { removeDir, tempDataDir } from '../../helpers/server.js';

const PW = 'Correct-Horse-9';
const PW2 = 'Battery-Staple-42';

let clockMs = Date.UTC(2030, 0, 1);
const now = (): number => clockMs;

const opened: { dir: string; db: QuiverDb }[] = [];

async function open(dir = tempDataDir(), opts: Partial<AuthOptions> = {}): Promise<{ auth: AuthService; dir: string; db: QuiverDb }> {
  const db = openDb(dir);
  opened.push({ dir, db });
  const auth = await AuthService.open(openAuthDb(db.root), { jwtTtlSeconds: 60, now, ...opts });
  return { auth, dir, db };
}

async function reopen(prev: { dir: string; db: QuiverDb }, opts: Partial<AuthOptions> = {}): Promise<{ auth: AuthService; dir: string; db: QuiverDb }> {
  await prev.db.root.close();
  return open(prev.dir, opts);
}

afterEach(async () => {
  for (const { dir, db } of opened.splice(0)) {
    await db.root.close().catch(() => undefined);
    removeDir(dir);
  }
});

function headers(h: Record<string, string>): GetHeader {
  return (name) => h[name];
}

const bearer = (t: string): GetHeader => headers({ authorization: `Bearer ${t}` });

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof QuiverError) return e.code;
    throw e;
  }
}

async function adminSetup(): Promise<{ auth: AuthService; dir: string; db: QuiverDb; jwt: string }> {
  const s = await open();
  await s.auth.doCreateAdmin({ authEnabled: false, principal: ANONYMOUS }, PW);
  const { token } = await s.auth.doLogin('127.0.0.1', 'admin', PW);
  const ctx = await s.auth.authenticate(bearer(token));
  await s.auth.doSetEnabled(ctx, true);
  return { ...s, jwt: token };
}

describe('credentialOf', () => {
  it('reads Bearer tokens and api-key headers', () => {
    expect(credentialOf(headers({}))).toBeNull();
    expect(credentialOf(headers({ authorization: 'Bearer abc' }))).toBe('abc');
    expect(credentialOf(headers({ authorization: 'bearer   abc  ' }))).toBe('abc');
    expect(credentialOf(headers({ 'api-key': 'abc' }))).toBe('abc');
    expect(credentialOf(headers({ 'api-key': 'abc', authorization: 'Bearer abc' }))).toBe('abc');
    expect(credentialOf(headers({ 'api-key': '', authorization: '' }))).toBeNull();
  });

  it('refuses other schemes and conflicting headers with 401', () => {
    for (const h of [{ authorization: 'Basic YWRtaW46eA==' }, { authorization: 'Bearer' }, { authorization: 'Bearer a b' }, { authorization: 'abc' }, { 'api-key': 'a', authorization: 'Bearer b' }]) {
      expect(() => credentialOf(headers(h)), JSON.stringify(h)).toThrow(expect.objectContaining({ code: 'Unauthorized' }));
    }
  });
});

describe('authorize (the decision, given who the caller is)', () => {
  const on = (principal: AuthContext['principal']): AuthContext => ({ authEnabled: true, principal });
  const off = (principal: AuthContext['principal']): AuthContext => ({ authEnabled: false, principal });
  const jwt = { kind: 'admin_jwt', jti: 'x' } as const;
  const key = (permission: number) => ({ kind: 'api_key', tokenId: 1, permission, grants: null }) as const;
  const result = (ctx: AuthContext, access: Parameters<typeof authorize>[1], adminExists = true): string => {
    try {
      authorize(ctx, access, adminExists);
      return 'ok';
    } catch (e) {
      return (e as QuiverError).code;
    }
  };

  it('with auth enabled: bits decide for keys, an admin JWT passes everything', () => {
    expect(result(on(ANONYMOUS), 'read')).toBe('Unauthorized');
    expect(result(on(key(1)), 'read')).toBe('ok');
    expect(result(on(key(2)), 'read')).toBe('Forbidden');
    expect(result(on(key(4)), 'read')).toBe('Forbidden');
    expect(result(on(key(2)), 'write')).toBe('ok');
    expect(result(on(key(5)), 'write')).toBe('Forbidden');
    expect(result(on(key(4)), 'admin')).toBe('ok');
    expect(result(on(key(3)), 'admin')).toBe('Forbidden');
    expect(result(on(key(7)), 'admin_jwt')).toBe('Forbidden');
    expect(result(on(ANONYMOUS), 'admin_jwt')).toBe('Unauthorized');
    for (const a of ['read', 'write', 'admin', 'token_admin', 'admin_jwt', 'admin_bootstrap', 'authenticated', 'public'] as const) {
      expect(result(on(jwt), a), a).toBe('ok');
    }
    expect(result(on(ANONYMOUS), 'public')).toBe('ok');
    expect(result(on(key(1)), 'authenticated')).toBe('ok');
    expect(result(on(ANONYMOUS), 'authenticated')).toBe('Unauthorized');
  });

  it('with auth disabled: data is open, token management is refused, admin actions still need the credential', () => {
    expect(result(off(ANONYMOUS), 'read')).toBe('ok');
    expect(result(off(ANONYMOUS), 'write')).toBe('ok');
    expect(result(off(jwt), 'token_admin')).toBe('Forbidden');
    expect(result(off(ANONYMOUS), 'token_admin')).toBe('Forbidden');
    expect(result(off(ANONYMOUS), 'admin')).toBe('Unauthorized');
    expect(result(off(ANONYMOUS), 'admin_jwt')).toBe('Unauthorized');
    expect(result(off(jwt), 'admin_jwt')).toBe('ok');
    expect(result(off(key(4)), 'admin')).toBe('ok');
  });

  it('bootstrap is open only while no admin exists', () => {
    expect(result(on(ANONYMOUS), 'admin_bootstrap', false)).toBe('ok');
    expect(result(off(ANONYMOUS), 'admin_bootstrap', false)).toBe('ok');
    expect(result(off(ANONYMOUS), 'admin_bootstrap', true)).toBe('Unauthorized');
    expect(result(on(key(3)), 'admin_bootstrap', true)).toBe('Forbidden');
    expect(result(on(key(4)), 'admin_bootstrap', true)).toBe('ok');
  });
});

describe('start-up', () => {
  it('creates the state once: auth disabled, a persisted random secret', async () => {
    const s1 = await open();
    expect(s1.auth.enabled).toBe(false);
    expect(s1.auth.adminExists).toBe(false);
    expect(s1.auth.notes.join()).toMatch(/new JWT secret/);
    await s1.auth.doCreateAdmin({ authEnabled: false, principal: ANONYMOUS }, PW);
    const { token } = await s1.auth.doLogin('a', 'admin', PW);
    const s2 = await reopen(s1);
    expect(s2.auth.notes).toEqual([]);
    // Same secret after a restart: the JWT still verifies.
    expect((await s2.auth.authenticate(bearer(token))).principal.kind).toBe('admin_jwt');
  });

  it('SERVICE_JWT_SECRET replaces the secret and is persisted', async () => {
    const secret = 'x'.repeat(40);
    const s1 = await open(undefined, { adminPassword: PW });
    const before = (await s1.auth.doLogin('a', 'admin', PW)).token;
    const s2 = await reopen(s1, { jwtSecret: secret });
    expect(s2.auth.notes.join()).toMatch(/SERVICE_JWT_SECRET/);
    expect(await code(s2.auth.authenticate(bearer(before)))).toBe('Unauthorized');
    // A token signed elsewhere with the configured secret verifies.
    const forged = await new SignJWT({ role: 'admin', pwd_epoch: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setIssuedAt(Math.floor(clockMs / 1000))
      .setExpirationTime(Math.floor(clockMs / 1000) + 60)
      .setJti('j')
      .sign(new TextEncoder().encode(secret));
    expect((await s2.auth.authenticate(bearer(forged))).principal.kind).toBe('admin_jwt');
    // Without the variable, the persisted override stays.
    const s3 = await reopen(s2);
    expect((await s3.auth.authenticate(bearer(forged))).principal.kind).toBe('admin_jwt');
  });

  it('refuses a JWT secret under 256 bits and an admin password against the policy', async () => {
    await expect(open(undefined, { jwtSecret: 'short' })).rejects.toThrow(ConfigError);
    await expect(open(undefined, { jwtSecret: 'short' })).rejects.toThrow(/SERVICE_JWT_SECRET/);
    await expect(open(undefined, { adminPassword: 'password' })).rejects.toThrow(/SERVICE_ADMIN_PASSWORD.*12 to 256/);
  });

  it('SERVICE_ADMIN_PASSWORD creates the admin only if none exists', async () => {
    const s1 = await open(undefined, { adminPassword: PW });
    expect(s1.auth.adminExists).toBe(true);
    await s1.auth.doLogin('a', 'admin', PW);
    const s2 = await reopen(s1, { adminPassword: PW2 });
    expect(await code(s2.auth.doLogin('a', 'admin', PW2))).toBe('Unauthorized');
    await s2.auth.doLogin('a', 'admin', PW);
  });
});

describe('admin user and login', () => {
  it('bootstraps once: of two concurrent bootstraps one wins, the other is 401', async () => {
    const { auth } = await open();
    const anon = { authEnabled: false, principal: ANONYMOUS };
    const results = await Promise.all([code(auth.doCreateAdmin(anon, PW)), code(auth.doCreateAdmin(anon, PW2))]);
    expect(results.sort()).toEqual(['Unauthorized', 'ok']);
  });

  it('applies the password policy', async () => {
    const { auth } = await open();
    expect(await code(auth.doCreateAdmin({ authEnabled: false, principal: ANONYMOUS }, 'weak'))).toBe('BadInput');
    expect(auth.adminExists).toBe(false);
  });

  it('refuses wrong user, wrong password and a missing admin alike', async () => {
    const { auth } = await open();
    expect(await code(auth.doLogin('a', 'admin', PW))).toBe('Unauthorized');
    await auth.doCreateAdmin({ authEnabled: false, principal: ANONYMOUS }, PW);
    expect(await code(auth.doLogin('a', 'root', PW))).toBe('Unauthorized');
    expect(await code(auth.doLogin('a', 'admin', PW2))).toBe('Unauthorized');
    const ok = await auth.doLogin('a', 'admin', PW);
    expect(ok.token_type).toBe('Bearer');
    expect(ok.expires_in).toBe(60);
  });

  it('rate limits failed logins per address, with the right password too, until the window ends', async () => {
    // The limiter keeps real time (rate-limiter-flexible), so the window is short here.
    const { auth } = await open(undefined, { adminPassword: PW, loginLimit: { maxFailures: 3, windowMs: 1_500 } });
    for (let i = 0; i < 3; i++) expect(await code(auth.doLogin('10.0.0.1', 'admin', 'Wrong-Password-1'))).toBe('Unauthorized');
    const err = await auth.doLogin('10.0.0.1', 'admin', PW).catch((e: unknown) => e);
    // Seconds left of the 1.5 s window, rounded up: 2, or 1 when the failed logins took long.
    expect(err).toMatchObject({ code: 'RateLimited' });
    expect([1, 2]).toContain((err as { retryAfterSeconds: number }).retryAfterSeconds);
    await auth.doLogin('10.0.0.2', 'admin', PW);
    await new Promise((r) => setTimeout(r, 1_600));
    await auth.doLogin('10.0.0.1', 'admin', PW);
  });

  it('JWT claims: sub, role, iat, exp, jti, pwd_epoch; expiry by the clock', async () => {
    const { auth, jwt } = await adminSetup();
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'jti', 'pwd_epoch', 'role', 'sub']);
    expect(claims).toMatchObject({ sub: 'admin', role: 'admin', pwd_epoch: 1 });
    expect(claims['exp']).toBe((claims['iat'] as number) + 60);
    const header = JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
    expect(header['alg']).toBe('HS256');
    clockMs += 59_000;
    expect((await auth.authenticate(bearer(jwt))).principal.kind).toBe('admin_jwt');
    clockMs += 2_000;
    await expect(auth.authenticate(bearer(jwt))).rejects.toThrow(/expired/);
  });

  it('a password reset revokes earlier JWTs, later ones work', async () => {
    const { auth, jwt } = await adminSetup();
    const ctx = await auth.authenticate(bearer(jwt));
    await auth.doResetPassword(ctx, PW2);
    await expect(auth.authenticate(bearer(jwt))).rejects.toThrow(/revoked/);
    expect(await code(auth.doLogin('a', 'admin', PW))).toBe('Unauthorized');
    const fresh = (await auth.doLogin('a', 'admin', PW2)).token;
    expect((await auth.authenticate(bearer(fresh))).principal.kind).toBe('admin_jwt');
  });

  it('refuses JWTs with another algorithm, another secret, or altered claims', async () => {
    const { auth, jwt } = await adminSetup();
    const [h, p, s] = jwt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, pwd_epoch: 99 })).toString('base64url')}.${s}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    const other = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('y'.repeat(32)));
    for (const t of [tampered, none, other, `${h}.${p}`, 'a.b.c', 'x'.repeat(5000)]) {
      expect(await code(auth.authenticate(bearer(t))), t.slice(0, 30)).toBe('Unauthorized');
    }
  });
});

describe('access tokens', () => {
  it('creates tokens as docs/interface.md section 4.1 says and lists them without the key', async () => {
    const { auth, jwt } = await adminSetup();
    const ctx = await auth.authenticate(bearer(jwt));
    const a = await auth.doCreateApiKey(ctx, { name: 'ingest', description: 'batch loader', permission: 'write,read' });
    expect(Object.keys(a)).toEqual(['id', 'name', 'description', 'api_key', 'created_at', 'expired_at', 'will_expire', 'permission']);
    expect(a).toMatchObject({ id: 1, name: 'ingest', description: 'batch loader', expired_at: null, will_expire: false, permission: 'read,write' });
    expect(a.created_at).toBe(new Date(clockMs).toISOString());
    const b = await auth.doCreateApiKey(ctx, { name: 'temp', permission: 'admin', will_expire: true, expires_in_seconds: 90 });
    expect(b).toMatchObject({ id: 2, description: '', will_expire: true, expired_at: new Date(clockMs + 90_000).toISOString(), permission: 'admin' });
    const list = auth.doListApiKeys(ctx);
    expect(list.map((t) => t.id)).toEqual([1, 2]);
    for (const t of list) expect(t).not.toHaveProperty('api_key');
    expect(JSON.stringify(list)).not.toContain(a.api_key);
  });

  it('validates permission and expiry', async () => {
    const { auth, jwt } = await adminSetup();
    const ctx = await auth.authenticate(bearer(jwt));
    const bad = [
      { name: 'x', permission: 'read,read' },
      { name: 'x', permission: '' },
      { name: 'x', permission: 'superuser' },
      { name: 'x', permission: 'read', will_expire: true },
      { name: 'x', permission: 'read', will_expire: true, expires_in_seconds: 0 },
      { name: 'x', permission: 'read', will_expire: true, expires_in_seconds: MAX_EXPIRES_IN_SECONDS + 1 },
    ];
    for (const req of bad) expect(await code(auth.doCreateApiKey(ctx, req)), JSON.stringify(req)).toBe('BadInput');
    // expires_in_seconds applies only when will_expire is true.
    const t = await auth.doCreateApiKey(ctx, { name: 'x', permission: 'read', will_expire: false, expires_in_seconds: 5 });
    expect(t.expired_at).toBeNull();
    await auth.doCreateApiKey(ctx, { name: 'x', permission: 'read', will_expire: true, expires_in_seconds: MAX_EXPIRES_IN_SECONDS });
    expect(auth.doListApiKeys(ctx)).toHaveLength(2);
  });

  it('expires, deletes and rotates', async () => {
    const { auth, jwt } = await adminSetup();
    const ctx = await auth.authenticate(bearer(jwt));
    const k = await auth.doCreateApiKey(ctx, { name: 'x', permission: 'read', will_expire: true, expires_in_seconds: 10 });
    const viaKey = headers({ 'api-key': k.api_key });
    expect((await auth.authenticate(viaKey)).principal).toEqual({ kind: 'api_key', tokenId: k.id, permission: 1, grants: null });
    clockMs += 9_999;
    await auth.authenticate(viaKey);
    clockMs += 1;
    expect(await code(auth.authenticate(viaKey))).toBe('Unauthorized');

    const r = await auth.doCreateApiKey(ctx, { name: 'r', permission: 'read,write' });
    const rotated = await auth.doRotateApiKey(ctx, r.id);
    expect(rotated).toMatchObject({ id: r.id, name: 'r', permission: 'read,write', created_at: r.created_at, expired_at: null });
    expect(rotated.api_key).not.toBe(r.api_key);
    expect(await code(auth.authenticate(bearer(r.api_key)))).toBe('Unauthorized');
    expect((await auth.authenticate(bearer(rotated.api_key))).principal.kind).toBe('api_key');

    await auth.doDeleteApiKey(ctx, r.id);
    expect(await code(auth.authenticate(bearer(rotated.api_key)))).toBe('Unauthorized');
    expect(await code(auth.doDeleteApiKey(ctx, r.id))).toBe('NotFound');
    expect(await code(auth.doRotateApiKey(ctx, 12345))).toBe('NotFound');
  });

  it('persists tokens and never reuses an id; the disk holds digests, not keys or passwords', async () => {
    const s = await adminSetup();
    const ctx = await s.auth.authenticate(bearer(s.jwt));
    const a = await s.auth.doCreateApiKey(ctx, { name: 'a', permission: 'read' });
    const b = await s.auth.doCreateApiKey(ctx, { name: 'b', permission: 'write' });
    await s.auth.doDeleteApiKey(ctx, b.id);
    const s2 = await reopen(s);
    expect(s2.auth.enabled).toBe(true);
    const ctx2 = await s2.auth.authenticate(bearer(s.jwt));
    expect(s2.auth.doListApiKeys(ctx2).map((t) => t.name)).toEqual(['a']);
    expect((await s2.auth.authenticate(bearer(a.api_key))).principal.kind).toBe('api_key');
    expect(await code(s2.auth.authenticate(bearer(b.api_key)))).toBe('Unauthorized');
    const c = await s2.auth.doCreateApiKey(ctx2, { name: 'c', permission: 'read' });
    expect(c.id).toBe(3);
    await s2.db.root.close();
    const files = readdirSync(s.dir).map((f) => readFileSync(join(s.dir, f)));
    expect(files.length).toBeGreaterThan(0);
    for (const bytes of files) {
      for (const secret of [a.api_key, b.api_key, c.api_key, a.api_key.slice(4), PW]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
  });
});
