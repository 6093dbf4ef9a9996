import { describe, expect, it } from 'vitest';
import { keyDigest, looksLikeApiKey, newApiKey, newJwtSecret, sameDigest } from '../../../src/main/auth/keys.js';
import { PASSWORD_RULE, hashPassword, meetsPasswordPolicy, verifyPassword } from '../../../src/main/auth/password.js';

describe('password policy (docs/decisions.md section 3: 12 to 256 characters, three of four classes)', () => {
  it('accepts passwords with three or four classes', () => {
    for (const ok of ['Abcdefghijk1', 'abcdefghij1!', 'ABCDEFGHIJ1!', 'Abcdefghijk!', 'Correct-Horse-9', 'Ünïcödé-Pässwört-1', 'pass word 12 X']) {
      expect(meetsPasswordPolicy(ok), ok).toBe(true);
    }
  });

  it('refuses short, long, and two-class passwords', () => {
    for (const bad of ['Abcdefghi1!', '', 'abcdefghijklmnop', 'abcdefghijk1', 'ABCDEFGHIJK!', '123456789012', 'abcdefghijk!', 'A1!' + 'a'.repeat(254)]) {
      expect(meetsPasswordPolicy(bad), bad).toBe(false);
    }
    expect(meetsPasswordPolicy('A1!' + 'a'.repeat(253))).toBe(true);
  });

  it('counts characters, not bytes or UTF-16 units', () => {
    // 12 astral characters are 24 UTF-16 units; with only one class (symbols) they fail on classes, not length.
    expect(meetsPasswordPolicy('Aa1' + '😀'.repeat(9))).toBe(true);
    expect(meetsPasswordPolicy('Aa1' + '😀'.repeat(8))).toBe(false);
  });

  it('states the rule', () => {
    expect(PASSWORD_RULE).toMatch(/12 to 256 characters/);
    expect(PASSWORD_RULE).toMatch(/three of/);
  });
});

describe('argon2id hashing', () => {
  it('hashes with argon2id and OWASP parameters, salted, and verifies', async () => {
    const h1 = await hashPassword('Correct-Horse-9');
    const h2 = await hashPassword('Correct-Horse-9');
    expect(h1).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(h1).not.toBe(h2);
    expect(h1).not.toContain('Correct-Horse-9');
    expect(await verifyPassword(h1, 'Correct-Horse-9')).toBe(true);
    expect(await verifyPassword(h1, 'Correct-Horse-8')).toBe(false);
    expect(await verifyPassword('not a hash', 'Correct-Horse-9')).toBe(false);
  });
});

describe('API keys', () => {
  it('are 256 random bits with a prefix, and differ every time', () => {
    const keys = Array.from({ length: 100 }, newApiKey);
    expect(new Set(keys).size).toBe(100);
    for (const k of keys) {
      expect(k).toMatch(/^qvk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(k.slice(4), 'base64url')).toHaveLength(32);
      expect(looksLikeApiKey(k)).toBe(true);
    }
  });

  it('tells keys from JWTs and garbage', () => {
    expect(looksLikeApiKey('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.sig')).toBe(false);
    expect(looksLikeApiKey('qvk_short')).toBe(false);
    expect(looksLikeApiKey(newApiKey() + 'x')).toBe(false);
    expect(looksLikeApiKey(' ' + newApiKey())).toBe(false);
  });

  it('are stored as SHA-256 digests compared in constant time', () => {
    const k = newApiKey();
    const d = keyDigest(k);
    expect(d).toHaveLength(32);
    expect(sameDigest(d, keyDigest(k))).toBe(true);
    expect(sameDigest(d, keyDigest(newApiKey()))).toBe(false);
    expect(sameDigest(d, d.subarray(0, 16))).toBe(false);
  });

  it('JWT secrets are 256 bits', () => {
    expect(newJwtSecret()).toHaveLength(32);
    expect(newJwtSecret().equals(newJwtSecret())).toBe(false);
  });
});
