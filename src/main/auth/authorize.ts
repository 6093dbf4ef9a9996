// The per-request auth decision, apart from any state: which credential a request carries
// (credentialOf), whether a route's Access rule needs it looked at (needsCredential), and whether
// the resulting context may use the route (authorize). AuthService.guard() combines them with
// its state; REST and gRPC call only guard(). Pure: no secret is ever put in an error message.

import {
  ANONYMOUS,
  AUTH_DISABLED_MESSAGE,
  forbidden,
  unauthorized,
  type AuthContext,
  type GetHeader,
  type Principal,
} from './context.js';
import { PERM, type Access } from './permissions.js';

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
    case 'write':
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

/**
 * The decision: returns when the context may use a route with this rule, throws 401 (no or bad
 * credential) or 403 (a valid credential without the right, or token management while auth is
 * disabled) otherwise. Pure: the state it needs is in its arguments.
 */
export function authorize(ctx: AuthContext, access: Access, adminExists: boolean): void {
  if (access === 'token_admin' && !ctx.authEnabled) throw forbidden(AUTH_DISABLED_MESSAGE);
  if (!needsCredential(access, ctx.authEnabled, adminExists)) return;
  const p: Principal = ctx.principal;
  if (p.kind === 'anonymous') throw unauthorized(MISSING_CREDENTIAL);
  // An admin JWT may do everything.
  if (p.kind === 'admin_jwt') return;
  switch (access) {
    case 'authenticated':
      return;
    case 'read':
    case 'write':
      if ((p.permission & PERM[access]) === 0) throw forbidden(`Forbidden: this access token lacks the ${access} permission`);
      return;
    case 'admin':
    case 'token_admin':
    case 'admin_bootstrap':
      if ((p.permission & PERM.admin) === 0) throw forbidden('Forbidden: this access token lacks the admin permission');
      return;
    case 'admin_jwt':
      throw forbidden('Forbidden: changing the auth setting requires an admin JWT');
    case 'public':
      return;
  }
}
