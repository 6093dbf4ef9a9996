// Collection scopes (docs/auth.md): what a credential limited to some collections may do on each.
// A scoped API key stores its scope entries (collection name or `*` pattern, read/write bits, an
// optional tenant filter); a Qdrant JWT with per-collection `access` gets the same form (jwt.ts).
// Both become Grants, which authorize.ts reads per request. Pure: no state, no I/O.

import { QuiverError } from '../../shared/errors.js';
import type { ScopeRecord } from '../../shared/db.js';
import { conditionsOf, type Filter } from '../../shared/filter.js';
import type { TenantGuard } from '../../shared/protocol.js';
import { patternMatcher, type ScopeEntryWire } from '../../shared/collection-scope.js';
import { parseFilterAt } from '../../workers/service/filter-parse.js';
import { PERM, PERMISSION_RULE, formatPermission, parsePermission } from './permissions.js';

/**
 * Changing a collection itself (create, update, delete, field indexes, vector names, snapshots,
 * cluster moves). Never written in a permission string: an unscoped key's write bit carries it, as
 * before scopes; a scope entry's write bit carries it unless the entry binds a tenant; a Qdrant
 * JWT has it with global access "m" only.
 */
export const MANAGE = 8;

/** Most entries in one key's scope. */
export const MAX_SCOPE_ENTRIES = 64;

/**
 * A scope entry as stored with its token and shown by the list: `collection` a name or a pattern
 * where `*` stands for any run of characters; `permission` read 1, write 2 (never admin: that bit
 * is the key's own); `filter` the tenant filter as the operator gave it, or null.
 */
export type ScopeEntry = ScopeRecord;

/** What a scope entry grants on the collections it matches. */
export interface CollectionGrant {
  readonly pattern: string;
  readonly exact: boolean;
  readonly matches: (name: string) => boolean;
  /** PERM read/write, and MANAGE. */
  readonly bits: number;
  readonly guard: TenantGuard | null;
}

/** A scoped credential's rights: `outside` on routes about no one collection, `collections` on the rest (first match wins). */
export interface Grants {
  readonly outside: number;
  readonly collections: readonly CollectionGrant[];
}

/** An unscoped credential's bits with MANAGE added where write is. */
export function withManage(permission: number): number {
  return (permission & PERM.write) !== 0 ? permission | MANAGE : permission;
}

/** `exact`: the pattern is a name, `*` included (a Qdrant JWT names collections, it has no patterns). */
export function grant(pattern: string, bits: number, guard: TenantGuard | null, exact = false): CollectionGrant {
  return { pattern, exact, matches: patternMatcher(pattern, exact), bits, guard };
}

/** The first grant whose pattern matches the collection. */
export function grantFor(grants: Grants, collection: string): CollectionGrant | undefined {
  return grants.collections.find((g) => g.matches(collection));
}

/** Whether the grants let the credential see a collection at all (lists show only those). */
export function canSee(grants: Grants | null, collection: string): boolean {
  if (grants === null) return true;
  const g = grantFor(grants, collection);
  return g !== undefined && (g.bits & PERM.read) !== 0;
}

const wires = new WeakMap<Grants, ScopeEntryWire[]>();

/** The grants as a hand-off carries them, for the collections a request reads besides its own; made once per Grants (a key's are kept with its record). */
export function scopeWire(grants: Grants): ScopeEntryWire[] {
  let wire = wires.get(grants);
  if (wire === undefined) {
    wire = grants.collections.map((g) => ({ pattern: g.pattern, exact: g.exact, read: (g.bits & PERM.read) !== 0, guard: g.guard }));
    wires.set(grants, wire);
  }
  return wire;
}

const cache = new WeakMap<object, Grants | null>();

/**
 * A token's grants, built once per record (its filters parsed again only when the record changes):
 * null for an unscoped token.
 */
export function grantsOfToken(t: { id: number; permission: number; scope?: ScopeEntry[] | null | undefined }): Grants | null {
  const hit = cache.get(t);
  if (hit !== undefined) return hit;
  let out: Grants | null = null;
  if (t.scope !== undefined && t.scope !== null) {
    out = {
      outside: t.permission,
      collections: t.scope.map((e) => {
        const filter = e.filter === null || e.filter === undefined ? null : parseFilterAt(e.filter, 'filter');
        const guard = filter === null ? null : { filter, rule: `the tenant filter of API key ${t.id} on "${e.collection}": ${JSON.stringify(e.filter)}` };
        return grant(e.collection, guard === null ? withManage(e.permission) : e.permission, guard);
      }),
    };
  }
  cache.set(t, out);
  return out;
}

/** A scope entry as a creation or update request gives it. */
export interface ScopeRequest {
  collection: string;
  permission: string;
  filter?: unknown;
}

/** Refuses conditions that do not read the payload: a tenant is told apart by its payload only (nested conditions' insides are not looked at). */
function payloadOnly(f: Filter, path: string): void {
  for (const { c, prefix, at } of conditionsOf(f, '', path)) {
    if (prefix !== '') continue;
    const what = 'has_id' in c ? 'has_id' : 'has_vector' in c ? 'has_vector' : 'slice' in c ? 'slice' : null;
    if (what !== null) throw QuiverError.badInput(`${at}: ${what} cannot bind a tenant; use payload conditions`);
  }
}

/** Checks a requested scope and returns it as stored; 400 naming the entry otherwise. */
export function scopeTerms(scope: readonly ScopeRequest[]): ScopeEntry[] {
  if (scope.length === 0) throw QuiverError.badInput('scope must name at least one collection; leave it out for a key over every collection');
  if (scope.length > MAX_SCOPE_ENTRIES) throw QuiverError.badInput(`scope may have at most ${MAX_SCOPE_ENTRIES} entries`);
  const seen = new Set<string>();
  return scope.map((e, i) => {
    const at = `scope[${i}]`;
    if (seen.has(e.collection)) throw QuiverError.badInput(`${at}.collection: "${e.collection}" is named twice`);
    seen.add(e.collection);
    const permission = parsePermission(e.permission);
    if (permission === null) throw QuiverError.badInput(`${at}.permission: ${PERMISSION_RULE}`);
    if ((permission & PERM.admin) !== 0) throw QuiverError.badInput(`${at}.permission: admin is not given per collection; give it in the key's own permission`);
    let filter: unknown = null;
    if (e.filter !== undefined && e.filter !== null) {
      payloadOnly(parseFilterAt(e.filter, `${at}.filter`), `${at}.filter`);
      filter = e.filter;
    }
    return { collection: e.collection, permission, filter };
  });
}

/** A scope entry's public form (the list and the creation answer). */
export function scopeOut(e: ScopeEntry): { collection: string; permission: string; filter?: unknown } {
  return { collection: e.collection, permission: formatPermission(e.permission), ...(e.filter === null ? {} : { filter: e.filter }) };
}
