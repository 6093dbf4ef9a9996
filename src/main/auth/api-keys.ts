// Access tokens (API keys) as AuthService holds and shows them: the checks on a creation
// request, the in-memory table of live tokens (by id, and by key digest for the per-request
// lookup), and the records' public form. A key is kept only as its SHA-256 digest; the key
// itself is shown once, on creation or rotation, and never again.

import type { TokenRecord } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { ApiKeyCreated, ApiKeyInfo } from '../../shared/schemas/auth.js';
import { PERM, PERMISSION_RULE, formatPermission, parsePermission } from './permissions.js';
import { scopeOut, scopeTerms, type ScopeEntry, type ScopeRequest } from './scopes.js';

/** Longest token lifetime: 10 years of 365 days. */
export const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

export interface ApiKeyRequest {
  name: string;
  description?: string | undefined;
  will_expire?: boolean | undefined;
  expires_in_seconds?: number | undefined;
  permission?: string | undefined;
  scope?: ScopeRequest[] | undefined;
}

/**
 * A permission string as its mask; a scoped key's may be empty (no rights outside its
 * collections) and may not hold admin, with which it could make itself a key over every
 * collection. 400 otherwise.
 */
function permissionOf(text: string, scoped: boolean): number {
  if (text === '' && scoped) return 0;
  const mask = parsePermission(text);
  if (mask === null) throw QuiverError.badInput(`Invalid permission: ${PERMISSION_RULE}`);
  if (scoped && (mask & PERM.admin) !== 0) throw QuiverError.badInput(SCOPED_ADMIN);
  return mask;
}

const SCOPED_ADMIN = 'Invalid permission: a scoped key cannot hold admin (it could make keys over every collection)';

/**
 * A key's permission and scope: an unscoped key needs a permission (the spec's rule); a scoped
 * key's is its rights outside collections, none when left out. 400 when either is invalid.
 */
export function accessTerms(permission: string | undefined, scope: readonly ScopeRequest[] | null | undefined): { permission: number; scope: ScopeEntry[] | null } {
  const entries = scope === undefined || scope === null ? null : scopeTerms(scope);
  if (permission === undefined) {
    if (entries === null) throw QuiverError.badInput(`Invalid permission: ${PERMISSION_RULE}`);
    return { permission: 0, scope: entries };
  }
  return { permission: permissionOf(permission, entries !== null), scope: entries };
}

/** The request's permission mask, scope and lifetime (null: never expires); 400 when any is invalid. */
export function apiKeyTerms(req: ApiKeyRequest): { permission: number; scope: ScopeEntry[] | null; lifetimeMs: number | null } {
  const { permission, scope } = accessTerms(req.permission, req.scope);
  const willExpire = req.will_expire ?? false;
  let lifetimeMs: number | null = null;
  if (willExpire) {
    const s = req.expires_in_seconds;
    if (s === undefined) throw QuiverError.badInput('expires_in_seconds is required when will_expire is true');
    if (!Number.isInteger(s) || s < 1 || s > MAX_EXPIRES_IN_SECONDS) {
      throw QuiverError.badInput(`expires_in_seconds must be an integer from 1 to ${MAX_EXPIRES_IN_SECONDS} (10 years)`);
    }
    lifetimeMs = s * 1000;
  }
  return { permission, scope, lifetimeMs };
}

/** A change to a token (PATCH): the fields given replace its own; `scope: null` makes it unscoped. */
export interface ApiKeyUpdate {
  name?: string | undefined;
  description?: string | undefined;
  permission?: string | undefined;
  scope?: ScopeRequest[] | null | undefined;
}

/** The token after the update, same id, key and expiry; 400 when the result would be invalid. */
export function updatedToken(old: TokenRecord, req: ApiKeyUpdate): TokenRecord {
  const scope = req.scope === undefined ? (old.scope ?? null) : req.scope === null ? null : scopeTerms(req.scope);
  const permission = req.permission === undefined ? old.permission : permissionOf(req.permission, scope !== null);
  if (scope !== null && (permission & PERM.admin) !== 0) throw QuiverError.badInput(SCOPED_ADMIN);
  if (scope === null && permission === 0) throw QuiverError.badInput(`Invalid permission: a key over every collection needs one; ${PERMISSION_RULE}`);
  const { scope: _dropped, ...rest } = old;
  return { ...rest, name: req.name ?? old.name, description: req.description ?? old.description, permission, ...(scope === null ? {} : { scope }) };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function digestKey(digest: Uint8Array): string {
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('base64');
}

export function info(t: TokenRecord): ApiKeyInfo {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    created_at: iso(t.created_at),
    expired_at: t.expires_at === null ? null : iso(t.expires_at),
    will_expire: t.expires_at !== null,
    permission: formatPermission(t.permission),
    ...(t.scope === undefined || t.scope === null ? {} : { scope: t.scope.map(scopeOut) }),
  };
}

export function created(t: TokenRecord, apiKey: string): ApiKeyCreated {
  const i = info(t);
  return {
    id: i.id,
    name: i.name,
    description: i.description,
    api_key: apiKey,
    created_at: i.created_at,
    expired_at: i.expired_at,
    will_expire: i.will_expire,
    permission: i.permission,
    ...(i.scope === undefined ? {} : { scope: i.scope }),
  };
}

/** The live tokens, by id and by key digest; both maps always hold the same records. */
export class TokenTable {
  readonly #tokens = new Map<number, TokenRecord>();
  readonly #byDigest = new Map<string, TokenRecord>();

  get(id: number): TokenRecord | undefined {
    return this.#tokens.get(id);
  }

  /** The token whose digest is `digest`, as far as the map key tells: callers compare in constant time. */
  byDigest(digest: Uint8Array): TokenRecord | undefined {
    return this.#byDigest.get(digestKey(digest));
  }

  values(): IterableIterator<TokenRecord> {
    return this.#tokens.values();
  }

  index(t: TokenRecord): void {
    this.#tokens.set(t.id, t);
    this.#byDigest.set(digestKey(t.digest), t);
  }

  unindex(t: TokenRecord): void {
    this.#tokens.delete(t.id);
    this.#byDigest.delete(digestKey(t.digest));
  }

  clear(): void {
    this.#tokens.clear();
    this.#byDigest.clear();
  }
}
