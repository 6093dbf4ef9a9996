// Access tokens (API keys) as AuthService holds and shows them: the checks on a creation
// request, the in-memory table of live tokens (by id, and by key digest for the per-request
// lookup), and the records' public form. A key is kept only as its SHA-256 digest; the key
// itself is shown once, on creation or rotation, and never again.

import type { TokenRecord } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { ApiKeyCreated, ApiKeyInfo } from '../../shared/schemas/auth.js';
import { PERMISSION_RULE, formatPermission, parsePermission } from './permissions.js';

/** Longest token lifetime: 10 years of 365 days. */
export const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

export interface ApiKeyRequest {
  name: string;
  description?: string | undefined;
  will_expire?: boolean | undefined;
  expires_in_seconds?: number | undefined;
  permission: string;
}

/** The request's permission mask and lifetime (null: never expires); 400 when either is invalid. */
export function apiKeyTerms(req: ApiKeyRequest): { permission: number; lifetimeMs: number | null } {
  const permission = parsePermission(req.permission);
  if (permission === null) throw QuiverError.badInput(`Invalid permission: ${PERMISSION_RULE}`);
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
  return { permission, lifetimeMs };
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
  };
}

export function created(t: TokenRecord, apiKey: string): ApiKeyCreated {
  const i = info(t);
  return { id: i.id, name: i.name, description: i.description, api_key: apiKey, created_at: i.created_at, expired_at: i.expired_at, will_expire: i.will_expire, permission: i.permission };
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
