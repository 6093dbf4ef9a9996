// Raw secrets: API keys and the JWT signing secret. An API key is `qvk_` and 256 random bits in
// base64url (47 characters); it is shown once and stored only as its SHA-256 digest. A key has
// 256 bits of entropy, so a plain digest is enough: nothing is gained from a slow hash, and a
// digest can be looked up. The prefix tells keys from JWTs (which contain dots) and lets secret
// scanners find leaked keys.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'qvk_';
const API_KEY_BYTES = 32;
const API_KEY_PATTERN = /^qvk_[A-Za-z0-9_-]{43}$/;

/** A new raw API key. */
export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_BYTES).toString('base64url');
}

/** True when the string has the shape of an API key (not whether one exists). */
export function looksLikeApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

export function keyDigest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Constant-time equality of two digests (false, without comparing, when the lengths differ). */
export function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}

/** A new JWT signing secret: 256 bits, as RFC 7518 3.2 asks of an HS256 key. */
export function newJwtSecret(): Buffer {
  return randomBytes(32);
}

/** Shortest SERVICE_JWT_SECRET accepted, in bytes: an HS256 key must be at least 256 bits (RFC 7518 3.2). */
export const JWT_SECRET_MIN_BYTES = 32;
