// AuthService's options, and the first step of opening it: checking SERVICE_JWT_SECRET and
// SERVICE_ADMIN_PASSWORD, then loading this node's auth state from LMDB, creating it on first
// start. Whatever is changed is committed and flushed before AuthService is built on it; in
// cluster mode AuthService.open then joins the shared state (which wins over this one).
// A secret shorter than 256 bits or a password against the policy stops start-up, and neither
// value is ever put in the message.

import type { AuthDb, AuthStateRecord, TokenRecord } from '../../shared/db.js';
import type { AuthReplica } from '../../shared/cluster/auth-replica.js';
import { ConfigError } from '../config.js';
import { JWT_SECRET_MIN_BYTES, newJwtSecret, sameDigest } from './keys.js';
import { PASSWORD_RULE, hashPassword, meetsPasswordPolicy } from './password.js';

export interface AuthOptions {
  jwtTtlSeconds: number;
  /** SERVICE_JWT_SECRET: replaces the persisted secret, and is persisted. */
  jwtSecret?: string | undefined;
  /** SERVICE_ADMIN_PASSWORD: creates the admin at start if none exists. */
  adminPassword?: string | undefined;
  /** Clock (Unix ms), injectable for tests. */
  now?: () => number;
  loginLimit?: { maxFailures: number; windowMs: number };
  /** Cluster mode: the shared auth state in etcd (see service.ts's file comment). */
  replica?: AuthReplica | undefined;
}

export interface LocalAuthState {
  state: AuthStateRecord;
  tokens: TokenRecord[];
  /** SERVICE_JWT_SECRET's bytes, when set. */
  override: Buffer | undefined;
  /** What start-up did (for the log); AuthService keeps adding to this same array. */
  notes: string[];
}

/**
 * Loads the auth state, creating it on first start: a new random JWT secret, auth disabled.
 * SERVICE_JWT_SECRET replaces the secret and is persisted; SERVICE_ADMIN_PASSWORD creates the
 * admin if there is none.
 */
export async function loadLocalState(db: AuthDb, opts: AuthOptions): Promise<LocalAuthState> {
  const notes: string[] = [];
  let override: Buffer | undefined;
  if (opts.jwtSecret !== undefined) {
    override = Buffer.from(opts.jwtSecret, 'utf8');
    if (override.length < JWT_SECRET_MIN_BYTES) {
      throw new ConfigError(`invalid configuration 'jwt_secret' (SERVICE_JWT_SECRET): must be at least ${JWT_SECRET_MIN_BYTES} bytes (256 bits) for HS256`);
    }
  }
  if (opts.adminPassword !== undefined && !meetsPasswordPolicy(opts.adminPassword)) {
    throw new ConfigError(`invalid configuration 'admin_password' (SERVICE_ADMIN_PASSWORD): ${PASSWORD_RULE}`);
  }
  const stored = db.state.get('state');
  let state: AuthStateRecord = stored ?? { auth_enabled: false, jwt_secret: newJwtSecret(), admin: null, next_token_id: 1 };
  if (stored === undefined) notes.push('auth state created: auth disabled, new JWT secret generated');
  if (override !== undefined && !sameDigest(state.jwt_secret, override)) {
    state = { ...state, jwt_secret: override };
    notes.push('JWT secret set from SERVICE_JWT_SECRET and persisted');
  }
  if (opts.adminPassword !== undefined && state.admin === null) {
    state = { ...state, admin: { password_hash: await hashPassword(opts.adminPassword), password_epoch: 1 } };
    notes.push('admin user created from SERVICE_ADMIN_PASSWORD');
  }
  if (state !== stored) {
    await db.state.put('state', state);
    await db.state.flushed;
  }
  const tokens = [...db.tokens.getRange()].map((e) => e.value);
  return { state, tokens, override, notes };
}
