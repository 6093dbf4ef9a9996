// Admin JWTs (docs/decisions.md section 3): HS256 with jose, claims sub = "admin", role = "admin", iat,
// exp, jti and pwd_epoch. pwd_epoch is the admin's password epoch when the token was issued;
// a password reset raises the epoch, so every token issued before it stops verifying.

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

export type JwtCheck = { ok: true; jti: string; passwordEpoch: number } | { ok: false; reason: string };

/** Verifies signature, algorithm, expiry and claims. The caller compares the password epoch. */
export async function verifyAdminJwt(key: KeyObject, token: string, nowMs: number): Promise<JwtCheck> {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'Invalid JWT' };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      subject: ADMIN_USERNAME,
      requiredClaims: ['iat', 'exp', 'jti', 'sub'],
      currentDate: new Date(nowMs),
    });
    const epoch = payload['pwd_epoch'];
    if (payload['role'] !== ROLE || typeof epoch !== 'number' || typeof payload.jti !== 'string') {
      return { ok: false, reason: 'Invalid JWT' };
    }
    return { ok: true, jti: payload.jti, passwordEpoch: epoch };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'JWT expired' };
    return { ok: false, reason: 'Invalid JWT' };
  }
}
