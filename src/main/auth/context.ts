// What a request was found to be, independent of the transport: the REST hook and the gRPC
// interceptor build one per request and authorize it against the route's access before the
// handler runs. The auth service's do* functions take it; the collection and point services do
// not, since by then the request is already allowed.

import { QuiverError } from '../../shared/errors.js';
import type { TenantGuard } from '../../shared/protocol.js';
import type { Grants } from './scopes.js';

export type Principal =
  /** No credential was looked at or none was sent (open routes, auth disabled, bootstrap). */
  | { readonly kind: 'anonymous' }
  /** A verified admin JWT. */
  | { readonly kind: 'admin_jwt'; readonly jti: string }
  /**
   * A live access token; `permission` is its bitmask (for a scoped token, its rights outside
   * collections); `grants`: its scope (scopes.ts), null for a token over every collection.
   */
  | { readonly kind: 'api_key'; readonly tokenId: number; readonly permission: number; readonly grants: Grants | null }
  /**
   * A JWT with Qdrant's claims (jwt.ts): global access "r" or "m" as `permission` (MANAGE included
   * for "m"), or per-collection access as `grants`.
   */
  | { readonly kind: 'qdrant_jwt'; readonly permission: number; readonly grants: Grants | null };

export interface AuthContext {
  /** The auth switch when the request was checked. */
  readonly authEnabled: boolean;
  readonly principal: Principal;
  /**
   * The tenant binding that applies to the request's collection, set when the decision for that
   * collection found one: the request's point operations are then bound to it (TenantGuard).
   */
  readonly tenant?: TenantGuard;
}

/** Reads one request header (lower-case name); the first value when there are several. */
export type GetHeader = (name: string) => string | undefined;

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

export function unauthorized(message: string): QuiverError {
  return new QuiverError('Unauthorized', message);
}

/** docs/interface.md sections 4.1 and 7.2, word for word. */
export const AUTH_DISABLED_MESSAGE = 'API key management API requires auth_enabled=true';
