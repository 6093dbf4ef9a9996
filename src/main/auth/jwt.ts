// Admin JWTs (docs/decisions.md section 3): HS256 with jose, claims sub = "admin", role = "admin", iat,
// exp, jti and pwd_epoch. pwd_epoch is the admin's password epoch when the token was issued;
// a password reset raises the epoch, so every token issued before it stops verifying.
// Beside them, JWTs an application mints with the same secret carrying Qdrant's claims (`access`
// global "r"/"m" or per collection "r"/"rw", `exp`, `value_exists`) are accepted with Qdrant's
// meaning (docs/auth.md); service.ts turns their claims into a principal.

import { randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';

export const ADMIN_USERNAME = 'admin';
const ROLE = 'admin';
/** Longer than any JWT this server issues; a longer bearer string is refused unparsed. */
const MAX_TOKEN_LENGTH = 4096;

export interface IssuedJwt {
  token: string;
  expiresIn: number;
}

export async function signAdminJwt(key: KeyObject, passwordEpoch: number, ttlSeconds: number, nowMs: number): Promise<IssuedJwt> {
  const iat = Math.floor(nowMs / 1000);
  const token = await new SignJWT({ role: ROLE, pwd_epoch: passwordEpoch })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(ADMIN_USERNAME)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .setJti(randomUUID())
    .sign(key);
  return { token, expiresIn: ttlSeconds };
}

/** A collection entry of Qdrant's `access` claim. */
export interface CollectionAccessClaim {
  collection: string;
  access: 'r' | 'rw';
}

/** Qdrant's `value_exists` claim: the token holds while a point with these payload values exists. */
export interface ValueExistsClaim {
  collection: string;
  matches: { key: string; value: string | number | boolean }[];
}

/** A verified JWT with Qdrant's claims: global access or per-collection entries. */
export interface QdrantClaims {
  access: 'r' | 'm' | CollectionAccessClaim[];
  valueExists: ValueExistsClaim | null;
}

export type JwtCheck =
  | { ok: true; kind: 'admin'; jti: string; passwordEpoch: number }
  | { ok: true; kind: 'qdrant'; claims: QdrantClaims }
  | { ok: false; reason: string };

const INVALID = 'Invalid JWT';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Qdrant's `access` claim (absent: full access, as Qdrant gives), or a reason to refuse the token. */
function accessClaim(v: unknown): QdrantClaims['access'] | { refused: string } {
  if (v === undefined) return 'm';
  if (v === 'r' || v === 'm') return v;
  if (!Array.isArray(v)) return { refused: `${INVALID}: access must be "r", "m" or a list of {collection, access}` };
  const out: CollectionAccessClaim[] = [];
  for (const [i, e] of v.entries()) {
    if (!isRecord(e) || typeof e.collection !== 'string' || e.collection === '' || (e.access !== 'r' && e.access !== 'rw')) {
      return { refused: `${INVALID}: access[${i}] must be {collection, access: "r" | "rw"}` };
    }
    // Qdrant's removed per-collection payload filters: refused, never ignored (they would widen access).
    if (Object.keys(e).some((k) => k !== 'collection' && k !== 'access')) return { refused: `${INVALID}: access[${i}] has fields other than collection and access` };
    out.push({ collection: e.collection, access: e.access });
  }
  return out;
}

function valueExistsClaim(v: unknown): ValueExistsClaim | null | string {
  if (v === undefined || v === null) return null;
  const bad = `${INVALID}: value_exists must be {collection, matches: [{key, value}]}`;
  if (!isRecord(v) || typeof v.collection !== 'string' || !Array.isArray(v.matches) || v.matches.length === 0) return bad;
  const matches: ValueExistsClaim['matches'] = [];
  for (const m of v.matches) {
    if (!isRecord(m) || typeof m.key !== 'string' || !['string', 'number', 'boolean'].includes(typeof m.value)) return bad;
    matches.push({ key: m.key, value: m.value as string | number | boolean });
  }
  return { collection: v.collection, matches };
}

/**
 * Verifies signature (HS256 with the server's secret), expiry and claims. An admin JWT (sub
 * "admin", role "admin", pwd_epoch, iat, exp, jti) is told apart from one with Qdrant's claims
 * (`access`, `value_exists`, an optional `exp`); the caller compares the admin's password epoch.
 */
export async function verifyJwt(key: KeyObject, token: string, nowMs: number): Promise<JwtCheck> {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: INVALID };
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(nowMs) });
    if (payload.sub === ADMIN_USERNAME && payload['role'] === ROLE) {
      const epoch = payload['pwd_epoch'];
      if (typeof epoch !== 'number' || typeof payload.jti !== 'string' || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') {
        return { ok: false, reason: INVALID };
      }
      return { ok: true, kind: 'admin', jti: payload.jti, passwordEpoch: epoch };
    }
    const access = accessClaim(payload['access']);
    if (typeof access === 'object' && !Array.isArray(access)) return { ok: false, reason: access.refused };
    const valueExists = valueExistsClaim(payload['value_exists']);
    if (typeof valueExists === 'string') return { ok: false, reason: valueExists };
    return { ok: true, kind: 'qdrant', claims: { access, valueExists } };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'JWT expired' };
    return { ok: false, reason: INVALID };
  }
}
