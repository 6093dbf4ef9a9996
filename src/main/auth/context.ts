// What a request was found to be, independent of the transport: the REST hook and the gRPC
// interceptor build one per request and authorize it against the route's access before the
// handler runs. The auth service's do* functions take it; the collection and point services do
// not, since by then the request is already allowed.

import { QuiverError } from '../../shared/errors.js';

export type Principal =
  /** No credential was looked at or none was sent (open routes, auth disabled, bootstrap). */
  | { readonly kind: 'anonymous' }
  /** A verified admin JWT. */
  | { readonly kind: 'admin_jwt'; readonly jti: string }
  /** A live access token; `permission` is its bitmask. */
  | { readonly kind: 'api_key'; readonly tokenId: number; readonly permission: number };

export interface AuthContext {
  /** The auth switch when the request was checked. */
  readonly authEnabled: boolean;
  readonly principal: Principal;
}

/** Reads one request header (lower-case name); the first value when there are several. */
export type GetHeader = (name: string) => string | undefined;

export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

export function unauthorized(message: string): QuiverError {
  return new QuiverError('Unauthorized', message);
}

export function forbidden(message: string): QuiverError {
  return new QuiverError('Forbidden', message);
}

/** docs/interface.md sections 4.1 and 7.2, word for word. */
export const AUTH_DISABLED_MESSAGE = 'API key management API requires auth_enabled=true';
