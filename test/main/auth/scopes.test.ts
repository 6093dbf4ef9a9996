// Unit tests of collection scopes (src/main/auth/scopes.ts) and the per-collection decision in
// authorize.ts: patterns, first match wins, the bits each entry grants, tenant bindings, and the
// deferred decision of gRPC calls.

import { describe, expect, it } from 'vitest';
import { DEFERRED, authorize, visibleTo } from '../../../src/main/auth/authorize.js';
import type { AuthContext, Principal } from '../../../src/main/auth/context.js';
import { PERM } from '../../../src/main/auth/permissions.js';
import { MANAGE, canSee, grant, grantsOfToken, scopeTerms } from '../../../src/main/auth/scopes.js';
import { QuiverError } from '../../../src/shared/errors.js';

const TENANT = { must: [{ key: 'tenant', match: { value: 'acme' } }] };

function token(scope: { collection: string; permission: number; filter: unknown }[] | null, permission = 0) {
  return { id: 7, permission, scope };
}

const ctxOf = (principal: Principal): AuthContext => ({ authEnabled: true, principal });

function outcome(run: () => unknown): string {
  try {
    const r = run();
    return r === null ? 'ok' : 'bound';
  } catch (e) {
    return `${(e as QuiverError).code}: ${(e as QuiverError).message}`;
  }
}

describe('patterns', () => {
  it('`*` stands for any run of characters, everything else is literal', () => {
    const g = grant('acme_*.v?', PERM.read, null);
    expect(g.matches('acme_.v?')).toBe(true);
    expect(g.matches('acme_docs.v?')).toBe(true);
    expect(g.matches('acme_docs.v1')).toBe(false);
    expect(g.matches('xacme_.v?')).toBe(false);
    expect(grant('*', PERM.read, null).matches('anything at all')).toBe(true);
    expect(grant('a*', PERM.read, null, true).matches('ab')).toBe(false);
    expect(grant('a*', PERM.read, null, true).matches('a*')).toBe(true);
  });
});

describe('grantsOfToken', () => {
  it('null for an unscoped token; entries in order; write without a filter manages, with one it does not', () => {
    expect(grantsOfToken(token(null, 3))).toBeNull();
    const g = grantsOfToken(token([{ collection: 'docs', permission: 3, filter: null }, { collection: 'acme_*', permission: 3, filter: TENANT }], 1))!;
    expect(g.outside).toBe(1);
    expect(g.collections.map((c) => [c.pattern, c.bits])).toEqual([
      ['docs', 3 | MANAGE],
      ['acme_*', 3],
    ]);
    expect(g.collections[1]!.guard).toEqual({ filter: TENANT, rule: `the tenant filter of API key 7 on "acme_*": ${JSON.stringify(TENANT)}` });
  });

  it('first match wins, and lists show only readable collections', () => {
    const g = grantsOfToken(token([{ collection: 'a_secret', permission: 2, filter: null }, { collection: 'a_*', permission: 1, filter: null }]))!;
    expect(canSee(g, 'a_secret')).toBe(false);
    expect(canSee(g, 'a_public')).toBe(true);
    expect(canSee(g, 'b')).toBe(false);
    expect(canSee(null, 'b')).toBe(true);
  });
});

describe('authorize on a collection', () => {
  const scoped: Principal = {
    kind: 'api_key',
    tokenId: 7,
    permission: 0,
    grants: grantsOfToken(token([{ collection: 'docs', permission: 1, filter: null }, { collection: 'shared', permission: 3, filter: TENANT }, { collection: 'own_*', permission: 3, filter: null }])),
  };
  const ctx = ctxOf(scoped);

  it('decides by the matching entry, and returns the binding of a bound one', () => {
    expect(outcome(() => authorize(ctx, 'read', true, 'docs'))).toBe('ok');
    expect(outcome(() => authorize(ctx, 'write', true, 'docs'))).toBe('Forbidden: Forbidden: this credential lacks the write permission on collection "docs"');
    expect(outcome(() => authorize(ctx, 'read', true, 'nope'))).toBe('Forbidden: Forbidden: this credential has no access to collection "nope"');
    expect(outcome(() => authorize(ctx, 'write', true, 'shared'))).toBe('bound');
    expect(authorize(ctx, 'read', true, 'shared')!.filter).toEqual(TENANT);
    expect(outcome(() => authorize(ctx, 'manage', true, 'shared'))).toBe('Forbidden: Forbidden: changing collection "shared" itself is not allowed through a tenant-bound credential');
    expect(outcome(() => authorize(ctx, 'manage', true, 'own_x'))).toBe('ok');
    expect(outcome(() => authorize(ctx, 'manage', true, 'docs'))).toMatch(/needs manage access/);
  });

  it('routes about no collection use the key own bits; token administration never looks at the scope', () => {
    expect(outcome(() => authorize(ctx, 'read', true, null))).toBe('Forbidden: Forbidden: this access token lacks the read permission');
    expect(outcome(() => authorize(ctx, 'token_admin', true, 'docs'))).toBe('Forbidden: Forbidden: this access token lacks the admin permission');
    // listing: allowed when some collection is readable, and then filtered
    expect(outcome(() => authorize(ctx, 'list', true, null))).toBe('ok');
    expect(['docs', 'shared', 'nope', 'own_1'].filter(visibleTo(ctx))).toEqual(['docs', 'shared', 'own_1']);
    const writeOnly = ctxOf({ kind: 'api_key', tokenId: 8, permission: 0, grants: grantsOfToken({ id: 8, permission: 0, scope: [{ collection: 'w', permission: 2, filter: null }] }) });
    expect(outcome(() => authorize(writeOnly, 'list', true, null))).toBe('Forbidden: Forbidden: this access token lacks the read permission');
  });

  it('a deferred decision lets a scoped call in until its collection is known; an unscoped one is decided at once', () => {
    expect(outcome(() => authorize(ctx, 'write', true, DEFERRED))).toBe('ok');
    const readKey = ctxOf({ kind: 'api_key', tokenId: 1, permission: PERM.read, grants: null });
    expect(outcome(() => authorize(readKey, 'write', true, DEFERRED))).toBe('Forbidden: Forbidden: this access token lacks the write permission');
    expect(outcome(() => authorize(readKey, 'manage', true, 'docs'))).toBe('Forbidden: Forbidden: this access token lacks the write permission');
  });

  it('while auth is disabled nothing is asked, scoped or not', () => {
    expect(outcome(() => authorize({ ...ctx, authEnabled: false }, 'manage', true, 'nope'))).toBe('ok');
  });
});

describe('scopeTerms', () => {
  it('stores entries as given, bits parsed, filter kept as JSON', () => {
    expect(scopeTerms([{ collection: 'a', permission: 'write,read', filter: TENANT }, { collection: 'b_*', permission: 'read' }])).toEqual([
      { collection: 'a', permission: 3, filter: TENANT },
      { collection: 'b_*', permission: 1, filter: null },
    ]);
  });

  it('refuses what does not read the payload, anywhere in the filter', () => {
    expect(() => scopeTerms([{ collection: 'a', permission: 'read', filter: { should: [{ must: [{ has_vector: 'v' }] }] } }])).toThrow('scope[0].filter.should[0].must[0]: has_vector cannot bind a tenant; use payload conditions');
    expect(() => scopeTerms([{ collection: 'a', permission: 'read', filter: { must_not: [{ slice: { total: 2, index: 0 } }] } }])).toThrow(/slice cannot bind a tenant/);
    expect(() => scopeTerms(Array.from({ length: 65 }, (_, i) => ({ collection: `c${i}`, permission: 'read' })))).toThrow('scope may have at most 64 entries');
  });
});
