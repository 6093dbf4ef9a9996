// The per-request auth decision, apart from any state: which credential a request carries
// (credentialOf), whether a route's Access rule needs it looked at (needsCredential), and whether
// the resulting context may use the route (authorize). AuthService.guard() combines them with
// its state; REST and gRPC call only guard(). Pure: no secret is ever put in an error message.

import {
  ANONYMOUS,
  AUTH_DISABLED_MESSAGE,
  unauthorized,
  type AuthContext,
  type GetHeader,
  type Principal,
} from './context.js';
import { QuiverError } from '../../shared/errors.js';
import type { TenantGuard } from '../../shared/protocol.js';
import { PERM, type Access } from './permissions.js';
import { MANAGE, canSee, grantFor, scopeWire, withManage, type Grants } from './scopes.js';
import { lacksOn, noAccessTo, type ScopeEntryWire } from '../../shared/collection-scope.js';

export const MISSING_CREDENTIAL = 'Must provide an API key or an Authorization bearer token';

export const ANONYMOUS_ENABLED: AuthContext = Object.freeze({ authEnabled: true, principal: ANONYMOUS });
export const ANONYMOUS_DISABLED: AuthContext = Object.freeze({ authEnabled: false, principal: ANONYMOUS });

/** The Bearer token or api-key value; null when neither header is sent. */
export function credentialOf(getHeader: GetHeader): string | null {
  const authz = getHeader('authorization')?.trim();
  const apiKey = getHeader('api-key')?.trim();
  let bearer: string | undefined;
  if (authz !== undefined && authz !== '') {
    const m = /^Bearer[ \t]+(\S+)$/i.exec(authz);
    if (m === null) throw unauthorized('The Authorization header must be "Bearer <token>"');
    bearer = m[1];
  }
  const key = apiKey === '' ? undefined : apiKey;
  if (bearer !== undefined && key !== undefined && bearer !== key) {
    throw unauthorized('The Authorization and api-key headers carry different credentials');
  }
  return bearer ?? key ?? null;
}

/** Whether the rule needs the credential looked at, given the auth switch and the admin's existence. */
export function needsCredential(access: Access, authEnabled: boolean, adminExists: boolean): boolean {
  switch (access) {
    case 'public':
      return false;
    case 'read':
    case 'list':
    case 'write':
    case 'manage':
    case 'authenticated':
      return authEnabled;
    case 'token_admin':
      return authEnabled;
    case 'admin_bootstrap':
      return adminExists;
    case 'admin':
    case 'admin_jwt':
      return true;
  }
}

/** The bit a rule asks of a credential (none for the rules that are not about bits). */
function bitOf(access: Access): number {
  switch (access) {
    case 'read':
    case 'list':
      return PERM.read;
    case 'write':
      return PERM.write;
    case 'manage':
      return MANAGE;
    case 'admin':
    case 'token_admin':
    case 'admin_bootstrap':
      return PERM.admin;
    default:
      return 0;
  }
}

function lacks(access: Access): QuiverError {
  if (access === 'manage') return QuiverError.forbidden('this access token lacks the write permission');
  const name = access === 'read' || access === 'list' ? 'read' : access === 'write' ? access : 'admin';
  return QuiverError.forbidden(`this access token lacks the ${name} permission`);
}

/** A collection not known yet: a gRPC call before its message is read (AuthService.forCollection decides once it is). */
export const DEFERRED: unique symbol = Symbol('collection not known yet');

/** What the request is about, for a scoped credential: the collection named by the route, no one collection (null), or DEFERRED. */
export type Target = string | null | typeof DEFERRED;

/**
 * The decision: returns when the context may use a route with this rule, throws 401 (no or bad
 * credential) or 403 (a valid credential without the right, or token management while auth is
 * disabled) otherwise. Returns the tenant binding that then applies to the target collection, or
 * null. Pure: the state it needs is in its arguments.
 */
export function authorize(ctx: AuthContext, access: Access, adminExists: boolean, target: Target = null): TenantGuard | null {
  if (access === 'token_admin' && !ctx.authEnabled) throw new QuiverError('Forbidden', AUTH_DISABLED_MESSAGE);
  if (!needsCredential(access, ctx.authEnabled, adminExists)) return null;
  const p: Principal = ctx.principal;
  if (p.kind === 'anonymous') throw unauthorized(MISSING_CREDENTIAL);
  // An admin JWT may do everything.
  if (p.kind === 'admin_jwt') return null;
  switch (access) {
    case 'authenticated':
    case 'public':
      return null;
    case 'admin_jwt':
      throw QuiverError.forbidden('changing the auth setting requires an admin JWT');
    default:
      break;
  }
  // A scoped credential lists the collections it may read (visibleTo), when there are any.
  if (access === 'list' && p.grants !== null && p.grants.collections.some((g) => (g.bits & PERM.read) !== 0)) return null;
  // Token management and the admin's password are never about a collection.
  const aboutCollection = typeof target === 'string' && bitOf(access) !== PERM.admin;
  if (p.grants !== null && aboutCollection) return authorizeGrants(p.grants, access, target);
  if (p.grants !== null && target === DEFERRED && bitOf(access) !== PERM.admin) return null;
  const bits = p.grants !== null ? p.grants.outside : p.kind === 'api_key' ? withManage(p.permission) : p.permission;
  if ((bits & bitOf(access)) === 0) throw lacks(access);
  return null;
}

/** A scoped credential on one collection: its first matching grant's bits and binding. */
function authorizeGrants(grants: Grants, access: Access, collection: string): TenantGuard | null {
  const g = grantFor(grants, collection);
  if (g === undefined) throw QuiverError.forbidden(noAccessTo(collection));
  const bit = bitOf(access);
  if ((g.bits & bit) !== 0) return g.guard;
  if (bit === MANAGE) {
    throw QuiverError.forbidden(
      g.guard !== null
        ? `changing collection "${collection}" itself is not allowed through a tenant-bound credential`
        : `changing collection "${collection}" itself needs manage access (write on an unbound scope, or a JWT with access "m")`,
    );
  }
  throw QuiverError.forbidden(lacksOn(access, collection));
}

/** Which collections a list shows the context: those a scoped credential may read, else all. */
export function visibleTo(ctx: AuthContext): (collection: string) => boolean {
  const p = ctx.principal;
  if (p.kind !== 'api_key' && p.kind !== 'qdrant_jwt') return () => true;
  const grants = p.grants;
  return grants === null ? () => true : (name) => canSee(grants, name);
}

/** A scoped credential's grants as a hand-off carries them (collection-scope.ts); undefined for any other. */
export function scopeOf(ctx: AuthContext | null | undefined): ScopeEntryWire[] | undefined {
  const p = ctx?.principal;
  if (p === undefined || (p.kind !== 'api_key' && p.kind !== 'qdrant_jwt') || p.grants === null) return undefined;
  return scopeWire(p.grants);
}
