// The credentials of the auth matrices (REST: test/main/auth-matrix.workers.test.ts, gRPC:
// test/main/auth-matrix-grpc.workers.test.ts) and what each may do, written out from
// docs/decisions.md section 3 and docs/auth.md independently of src/main/auth: keys over every
// collection, keys scoped to collection m (read, read+write, bound to a tenant), a key scoped to
// another collection, and JWTs with Qdrant's claims.

import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { Access } from '../../src/main/auth/permissions.js';
import { ADMIN_PASSWORD, OTHER_PASSWORD, bearer, createAdmin, createKey, login, setEnabled } from './auth.js';
import { call } from './server.js';

export const CREDENTIALS = [
  'no credential',
  'garbage',
  'expired key',
  'deleted key',
  'read key',
  'write key',
  'admin-only key',
  'read+write key',
  'admin JWT',
  'JWT signed with another secret',
  'JWT from before a password reset',
  'scoped read key',
  'scoped read+write key',
  'key scoped to another collection',
  'key bound to tenant a',
  'key bound to tenant z',
  'Qdrant JWT r',
  'Qdrant JWT m',
  'Qdrant JWT rw on m',
] as const;
export type Credential = (typeof CREDENTIALS)[number];

/** The server's JWT secret in the matrices: the Qdrant JWTs are minted with it. */
export const MATRIX_SECRET = 'matrix-secret-of-at-least-thirty-two-bytes';

const INVALID: ReadonlySet<Credential> = new Set(['garbage', 'expired key', 'deleted key', 'JWT signed with another secret', 'JWT from before a password reset']);
const KEY_BITS: Partial<Record<Credential, number>> = { 'read key': 1, 'write key': 2, 'admin-only key': 4, 'read+write key': 3 };

const R = 1;
const W = 2;
const M = 8;
/** Credentials limited to one collection: which, and read / write / manage there. Nothing outside collections. */
const SCOPED: Partial<Record<Credential, { on: string; bits: number }>> = {
  'scoped read key': { on: 'm', bits: R },
  'scoped read+write key': { on: 'm', bits: R | W | M },
  'key scoped to another collection': { on: 'elsewhere', bits: R | W | M },
  // A tenant binding never manages the collection.
  'key bound to tenant a': { on: 'm', bits: R | W },
  'key bound to tenant z': { on: 'm', bits: R | W },
  // Qdrant: per-collection "rw" never manages.
  'Qdrant JWT rw on m': { on: 'm', bits: R | W },
};
/** Qdrant's global access: "r" reads, "m" does everything but Quiver's token administration. */
const GLOBAL_JWT: Partial<Record<Credential, number>> = { 'Qdrant JWT r': R, 'Qdrant JWT m': R | W | M };

/** Bound credentials: a write their binding refuses is 403 naming the tenant filter, not an auth refusal. */
export const BOUND: ReadonlySet<Credential> = new Set(['key bound to tenant a', 'key bound to tenant z']);

export type Outcome = 'pass' | 401 | 403;

const NEED: Partial<Record<Access, number>> = { read: R, list: R, write: W, manage: M };

/**
 * What a credential gets on a route with this rule; `target` is the collection the route names
 * (null: none). Keys over every collection: listing is reading, changing a collection is writing.
 */
export function oracle(access: Access, cred: Credential, enabled: boolean, target: string | null): Outcome {
  const bits = KEY_BITS[cred];
  const scoped = SCOPED[cred];
  const global = GLOBAL_JWT[cred];
  const missingOrBad = cred === 'no credential' || INVALID.has(cred);
  const adminRule = (): Outcome => (missingOrBad ? 401 : cred === 'admin JWT' ? 'pass' : ((bits ?? 0) & 4) !== 0 ? 'pass' : 403);
  switch (access) {
    case 'public':
      return 'pass';
    case 'read':
    case 'list':
    case 'write':
    case 'manage':
    case 'authenticated': {
      if (!enabled) return 'pass';
      if (missingOrBad) return 401;
      if (cred === 'admin JWT' || access === 'authenticated') return 'pass';
      const need = NEED[access]!;
      if (global !== undefined) return (global & need) !== 0 ? 'pass' : 403;
      if (scoped !== undefined) {
        // A scoped credential lists (what it may read) when it may read some collection: all of these may.
        if (access === 'list') return 'pass';
        if (target !== scoped.on) return 403;
        return (scoped.bits & need) !== 0 ? 'pass' : 403;
      }
      return ((bits ?? 0) & (need === M ? W : need)) !== 0 ? 'pass' : 403;
    }
    case 'token_admin':
      // docs/interface.md sections 3.1 and 5.3: token management is refused while auth is disabled, whoever asks.
      return enabled ? adminRule() : 403;
    case 'admin':
    case 'admin_bootstrap': // the admin exists in these tests
      return adminRule();
    case 'admin_jwt':
      return missingOrBad ? 401 : cred === 'admin JWT' ? 'pass' : 403;
  }
}

function qdrantJwt(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(MATRIX_SECRET));
}

/**
 * Bootstraps the admin on a fresh server started with SERVICE_JWT_SECRET = MATRIX_SECRET, enables
 * auth, makes every credential and collection m with points 1-4 (payload tag "a"). The admin's
 * password ends as OTHER_PASSWORD (a reset makes the pre-reset JWT); returns the credentials and a
 * current admin JWT.
 */
export async function setUpCredentials(base: string): Promise<{ creds: Record<Credential, string | null>; adminJwt: string }> {
  const creds = {} as Record<Credential, string | null>;
  await createAdmin(base, ADMIN_PASSWORD);
  let jwt = await login(base, ADMIN_PASSWORD);
  await setEnabled(base, jwt, true);
  const key = async (body: Record<string, unknown>) => (await createKey(base, jwt, body)).api_key;
  const expiring = await key({ permission: 'read,write,admin', will_expire: true, expires_in_seconds: 1 });
  const expiresAt = Date.now() + 1_000;
  const doomed = await createKey(base, jwt, { permission: 'read,write,admin' });
  expect((await call(base, 'DELETE', `/auth/api_key/${doomed.id}`, undefined, bearer(jwt))).status).toBe(200);
  creds['no credential'] = null;
  creds['garbage'] = 'not-a-token';
  creds['expired key'] = expiring;
  creds['deleted key'] = doomed.api_key;
  creds['read key'] = await key({ permission: 'read' });
  creds['write key'] = await key({ permission: 'write' });
  creds['admin-only key'] = await key({ permission: 'admin' });
  creds['read+write key'] = await key({ permission: 'read,write' });
  creds['scoped read key'] = await key({ scope: [{ collection: 'm', permission: 'read' }] });
  creds['scoped read+write key'] = await key({ scope: [{ collection: 'm*', permission: 'read,write' }] });
  creds['key scoped to another collection'] = await key({ scope: [{ collection: 'elsewhere', permission: 'read,write' }] });
  const bound = (tenant: string) => ({ scope: [{ collection: 'm', permission: 'read,write', filter: { must: [{ key: 'tag', match: { value: tenant } }] } }] });
  creds['key bound to tenant a'] = await key(bound('a'));
  creds['key bound to tenant z'] = await key(bound('z'));
  creds['Qdrant JWT r'] = await qdrantJwt({ access: 'r' });
  creds['Qdrant JWT m'] = await qdrantJwt({ access: 'm' });
  creds['Qdrant JWT rw on m'] = await qdrantJwt({ access: [{ collection: 'm', access: 'rw' }] });
  // A JWT from before a reset: valid until the password changes.
  const preReset = await login(base, ADMIN_PASSWORD);
  expect((await call(base, 'POST', '/auth/admin/reset-password', { password: OTHER_PASSWORD }, bearer(jwt))).status).toBe(200);
  creds['JWT from before a password reset'] = preReset;
  jwt = await login(base, OTHER_PASSWORD);
  // Right claims (the current password epoch too), wrong secret.
  const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  creds['JWT signed with another secret'] = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode('another-secret-of-at-least-32-bytes!!'));
  creds['admin JWT'] = jwt;
  // Data to work on.
  expect((await call(base, 'PUT', '/collections/m', { vectors: { size: 4, distance: 'Dot' } }, bearer(jwt))).status).toBe(200);
  const points = [1, 2, 3, 4].map((id) => ({ id, vector: [id, 1, 0, 0], payload: { tag: 'a', x: id } }));
  expect((await call(base, 'PUT', '/collections/m/points?wait=true', { points }, bearer(jwt))).status).toBe(200);
  const wait = expiresAt - Date.now() + 50;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return { creds, adminJwt: jwt };
}

/** Whether an answer through a bound credential that the oracle lets pass is right: not refused by auth, or refused by its binding. */
export function boundPassOk(status: number, message: string): boolean {
  if (status === 401 || (status >= 500 && status !== 501)) return false;
  return status !== 403 || message.includes('tenant filter of API key');
}
