// The authentication layer (spec sections 2-5, DESIGN.md section 3), independent of any
// transport. One AuthService per process owns the auth state:
//
// - LMDB (`auth`, `auth_tokens`, see shared/db.ts) is the durable copy; memory holds the same
//   state for the per-request checks. Only the main thread reads or writes it, and every write
//   goes through one serial queue, commits, and is flushed before the caller hears success.
// - authenticate() finds out who a request is, from `Authorization: Bearer <token>` or
//   `api-key: <token>`; authorize() decides whether that is enough for a route's Access rule;
//   guard() does both, looking at credentials only when the rule needs them. REST (one
//   onRequest hook) and gRPC (one interceptor) call guard() and nothing else.
// - The do* functions are the auth endpoints' operations.
//
// Cluster mode (issue 16): the state lives in etcd, shared by every node (an AuthReplica,
// src/main/cluster/auth-sync.ts). A write commits there first (a compare-and-swap on the state,
// planned again from the newer state when another node changed it meanwhile), is adopted here,
// and reaches the other nodes through their watch; LMDB keeps a copy of the last state seen.
// Checks stay here and only here: the replica only moves state.
//
// Secrets: the admin password is kept only as an argon2id hash; API keys only as SHA-256
// digests, found by digest and compared in constant time; no secret is ever put in an error
// message or a log line.

import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type { AuthDb, AuthStateRecord, TokenRecord } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { ApiKeyCreated, ApiKeyInfo } from '../../shared/schemas/auth.js';
import type { AuthReplica, AuthSnapshot } from './replica.js';
import { ConfigError } from '../config.js';
import {
  ANONYMOUS,
  AUTH_DISABLED_MESSAGE,
  forbidden,
  unauthorized,
  type AuthContext,
  type GetHeader,
  type Principal,
} from './context.js';
import { ADMIN_USERNAME, signAdminJwt, verifyAdminJwt } from './jwt.js';
import { JWT_SECRET_MIN_BYTES, keyDigest, looksLikeApiKey, newApiKey, newJwtSecret, sameDigest } from './keys.js';
import { PASSWORD_RULE, hashPassword, meetsPasswordPolicy, verifyPassword } from './password.js';
import { PERM, PERMISSION_RULE, formatPermission, parsePermission, type Access } from './permissions.js';
import { LoginLimiter } from './rate-limit.js';

/** Failed logins allowed per client address and window before 429. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 60_000;
/** Longest token lifetime: 10 years of 365 days. */
export const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

export const MISSING_CREDENTIAL = 'Must provide an API key or an Authorization bearer token';
const INVALID_CREDENTIAL = 'Invalid API key or JWT';
const BAD_LOGIN = 'Invalid username or password';

export interface AuthOptions {
  jwtTtlSeconds: number;
  /** SERVICE_JWT_SECRET: replaces the persisted secret, and is persisted. */
  jwtSecret?: string | undefined;
  /** SERVICE_ADMIN_PASSWORD: creates the admin at start if none exists. */
  adminPassword?: string | undefined;
  /** Clock (Unix ms), injectable for tests. */
  now?: () => number;
  loginLimit?: { maxFailures: number; windowMs: number };
  /** Cluster mode: the shared auth state in etcd (see the file comment). */
  replica?: AuthReplica | undefined;
}

/** Another node changed the shared state since this one read it: the write is planned again. */
class StateMoved extends Error {}

/** Times a write is planned again after another node changed the shared state. */
const CAS_ATTEMPTS = 10;

export interface ApiKeyRequest {
  name: string;
  description?: string | undefined;
  will_expire?: boolean | undefined;
  expires_in_seconds?: number | undefined;
  permission: string;
}

export interface LoginResult {
  token: string;
  token_type: 'Bearer';
  expires_in: number;
}

const ANONYMOUS_ENABLED: AuthContext = Object.freeze({ authEnabled: true, principal: ANONYMOUS });
const ANONYMOUS_DISABLED: AuthContext = Object.freeze({ authEnabled: false, principal: ANONYMOUS });

/** 429 for too many failed logins; carries the Retry-After seconds. */
export class RateLimitedError extends QuiverError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('RateLimited', `Too many failed login attempts from this address; retry in ${retryAfterSeconds} s`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function digestKey(digest: Uint8Array): string {
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('base64');
}

function info(t: TokenRecord): ApiKeyInfo {
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

function created(t: TokenRecord, apiKey: string): ApiKeyCreated {
  const i = info(t);
  return { id: i.id, name: i.name, description: i.description, api_key: apiKey, created_at: i.created_at, expired_at: i.expired_at, will_expire: i.will_expire, permission: i.permission };
}

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
function needsCredential(access: Access, authEnabled: boolean, adminExists: boolean): boolean {
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

export class AuthService {
  readonly #db: AuthDb;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #limiter: LoginLimiter;
  #state: AuthStateRecord;
  #jwtKey: KeyObject;
  readonly #replica: AuthReplica | null;
  /** Cluster mode: auth/state's mod revision as last seen (the next write's compare). */
  #stateRevision = '0';
  /** Cluster mode: the etcd revision of the state held here; older snapshots are ignored. */
  #revision = 0n;
  readonly #tokens = new Map<number, TokenRecord>();
  readonly #byDigest = new Map<string, TokenRecord>();
  #queue: Promise<unknown> = Promise.resolve();
  #dummyHash: Promise<string> | null = null;
  /** What start-up did (for the log): secret generated or replaced, admin created. */
  readonly notes: readonly string[];

  private constructor(db: AuthDb, state: AuthStateRecord, tokens: TokenRecord[], opts: AuthOptions, notes: string[]) {
    this.#db = db;
    this.#replica = opts.replica ?? null;
    this.#ttl = opts.jwtTtlSeconds;
    this.#now = opts.now ?? Date.now;
    this.#limiter = new LoginLimiter({
      maxFailures: opts.loginLimit?.maxFailures ?? LOGIN_MAX_FAILURES,
      windowMs: opts.loginLimit?.windowMs ?? LOGIN_WINDOW_MS,
    });
    this.#state = state;
    this.#jwtKey = createSecretKey(Buffer.from(state.jwt_secret));
    for (const t of tokens) this.#index(t);
    this.notes = notes;
  }

  /**
   * Loads the auth state, creating it on first start: a new random JWT secret, auth disabled.
   * SERVICE_JWT_SECRET replaces the secret and is persisted; SERVICE_ADMIN_PASSWORD creates the
   * admin if there is none. A secret shorter than 256 bits or a password against the policy
   * stops start-up.
   */
  static async open(db: AuthDb, opts: AuthOptions): Promise<AuthService> {
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
    if (opts.replica === undefined) return new AuthService(db, state, tokens, opts, notes);
    // Cluster mode: the shared state wins; this node's seeds it only when the cluster has none.
    const shared = await opts.replica.join(state, tokens);
    const service = new AuthService(db, shared.state, shared.tokens, opts, notes);
    service.#stateRevision = shared.stateRevision;
    service.#revision = BigInt(shared.revision);
    opts.replica.onSnapshot((s) => service.#adopt(s));
    if (override !== undefined && !sameDigest(shared.state.jwt_secret, override)) {
      await service.#serial(async () => service.#commit({ ...service.#state, jwt_secret: override }));
      notes.push('cluster JWT secret set from SERVICE_JWT_SECRET');
    }
    if (opts.adminPassword !== undefined && !service.adminExists) {
      const hash = await hashPassword(opts.adminPassword);
      await service.#serial(async () => {
        if (service.#state.admin === null) await service.#commit({ ...service.#state, admin: { password_hash: hash, password_epoch: 1 } });
      });
      notes.push('cluster admin user created from SERVICE_ADMIN_PASSWORD');
    }
    await service.#cache();
    return service;
  }

  /** A newer shared state from the watch: replaces what this node holds. */
  #adopt(s: AuthSnapshot): void {
    const rev = BigInt(s.revision);
    if (rev < this.#revision) return;
    this.#revision = rev;
    this.#setState(s.state, s.stateRevision);
    this.#tokens.clear();
    this.#byDigest.clear();
    for (const t of s.tokens) this.#index(t);
    void this.#cache().catch(() => undefined);
  }

  #setState(state: AuthStateRecord, stateRevision: string): void {
    if (!sameDigest(state.jwt_secret, this.#state.jwt_secret)) this.#jwtKey = createSecretKey(Buffer.from(state.jwt_secret));
    this.#state = state;
    this.#stateRevision = stateRevision;
  }

  /** Cluster mode: LMDB's copy of the shared state, replaced whole (a few records). */
  async #cache(): Promise<void> {
    const state = this.#state;
    const tokens = [...this.#tokens.values()];
    await this.#db.root.transaction(() => {
      this.#db.state.putSync('state', state);
      for (const { key } of this.#db.tokens.getRange()) this.#db.tokens.removeSync(key);
      for (const t of tokens) this.#db.tokens.putSync(t.id, t);
    });
  }

  get enabled(): boolean {
    return this.#state.auth_enabled;
  }

  get adminExists(): boolean {
    return this.#state.admin !== null;
  }

  // ------------------------------------------------------------------ per request

  /**
   * Who the request is: anonymous when it carries no credential, otherwise a verified admin JWT
   * or a live access token. 401 for a credential that is malformed, unknown, expired, revoked or
   * signed with another secret.
   */
  async authenticate(getHeader: GetHeader): Promise<AuthContext> {
    const token = credentialOf(getHeader);
    const principal = token === null ? ANONYMOUS : await this.#identify(token);
    return { authEnabled: this.#state.auth_enabled, principal };
  }

  /** authenticate() when the rule needs it, then authorize(). The one entry point of REST and gRPC. */
  async guard(access: Access, getHeader: GetHeader): Promise<AuthContext> {
    const enabled = this.#state.auth_enabled;
    const ctx = needsCredential(access, enabled, this.adminExists)
      ? await this.authenticate(getHeader)
      : enabled
        ? ANONYMOUS_ENABLED
        : ANONYMOUS_DISABLED;
    authorize(ctx, access, this.adminExists);
    return ctx;
  }

  async #identify(token: string): Promise<Principal> {
    if (looksLikeApiKey(token)) {
      const digest = keyDigest(token);
      const t = this.#byDigest.get(digestKey(digest));
      if (t === undefined || !sameDigest(t.digest, digest)) throw unauthorized(INVALID_CREDENTIAL);
      if (t.expires_at !== null && this.#now() >= t.expires_at) throw unauthorized(INVALID_CREDENTIAL);
      return { kind: 'api_key', tokenId: t.id, permission: t.permission };
    }
    if (token.split('.').length !== 3) throw unauthorized(INVALID_CREDENTIAL);
    const check = await verifyAdminJwt(this.#jwtKey, token, this.#now());
    if (!check.ok) throw unauthorized(check.reason);
    const admin = this.#state.admin;
    if (admin === null || check.passwordEpoch !== admin.password_epoch) {
      throw unauthorized('JWT revoked: the admin password has changed since it was issued');
    }
    return { kind: 'admin_jwt', jti: check.jti };
  }

  // ------------------------------------------------------------------ admin user and login

  /**
   * POST /auth/admin. Without a credential (allowed only while no admin exists) it creates the
   * admin; with an admin credential it sets the admin's password, as a reset does. The check
   * runs again inside the write queue, so two concurrent bootstraps cannot both win.
   */
  async doCreateAdmin(ctx: AuthContext, password: string): Promise<'created' | 'updated'> {
    if (!meetsPasswordPolicy(password)) throw QuiverError.badInput(PASSWORD_RULE);
    const hash = await hashPassword(password);
    return this.#serial(async () => {
      const before = this.#state.admin;
      if (before !== null && ctx.principal.kind === 'anonymous') throw unauthorized(MISSING_CREDENTIAL);
      await this.#commit({ ...this.#state, admin: { password_hash: hash, password_epoch: (before?.password_epoch ?? 0) + 1 } });
      return before === null ? 'created' : 'updated';
    });
  }

  /** POST /auth/admin/reset-password: a new password and a new epoch, which revokes every earlier admin JWT. */
  async doResetPassword(_ctx: AuthContext, password: string): Promise<void> {
    if (!meetsPasswordPolicy(password)) throw QuiverError.badInput(PASSWORD_RULE);
    const hash = await hashPassword(password);
    await this.#serial(async () => {
      const before = this.#state.admin;
      if (before === null) throw QuiverError.notFound('No admin user exists; create it with POST /auth/admin');
      await this.#commit({ ...this.#state, admin: { password_hash: hash, password_epoch: before.password_epoch + 1 } });
    });
  }

  /**
   * POST /auth/login. Every attempt counts against the address up front (so parallel guesses
   * count too) and a success clears it; past the limit the answer is 429 before any hashing.
   * An unknown user and a missing admin take the same time as a wrong password.
   */
  async doLogin(address: string, username: string, password: string): Promise<LoginResult> {
    const wait = await this.#limiter.attempt(address);
    if (wait > 0) throw new RateLimitedError(wait);
    const admin = this.#state.admin;
    const hash = admin?.password_hash ?? (await this.#dummy());
    const passwordOk = await verifyPassword(hash, password);
    if (!passwordOk || admin === null || username !== ADMIN_USERNAME) throw unauthorized(BAD_LOGIN);
    await this.#limiter.succeed(address);
    const jwt = await signAdminJwt(this.#jwtKey, admin.password_epoch, this.#ttl, this.#now());
    return { token: jwt.token, token_type: 'Bearer', expires_in: jwt.expiresIn };
  }

  #dummy(): Promise<string> {
    this.#dummyHash ??= hashPassword(randomUUID());
    return this.#dummyHash;
  }

  /** PATCH /auth/enabled: the state after the update. */
  async doSetEnabled(_ctx: AuthContext, enabled: boolean): Promise<boolean> {
    return this.#serial(async () => {
      if (this.#state.auth_enabled !== enabled) await this.#commit({ ...this.#state, auth_enabled: enabled });
      return this.#state.auth_enabled;
    });
  }

  // ------------------------------------------------------------------ access tokens

  async doCreateApiKey(_ctx: AuthContext, req: ApiKeyRequest): Promise<ApiKeyCreated> {
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
    const apiKey = newApiKey();
    return this.#serial(async () => {
      const id = this.#state.next_token_id;
      const now = this.#now();
      const t: TokenRecord = {
        id,
        name: req.name,
        description: req.description ?? '',
        digest: keyDigest(apiKey),
        created_at: now,
        expires_at: lifetimeMs === null ? null : now + lifetimeMs,
        permission,
      };
      await this.#commit({ ...this.#state, next_token_id: id + 1 }, [t]);
      this.#index(t);
      return created(t, apiKey);
    });
  }

  doListApiKeys(_ctx: AuthContext): ApiKeyInfo[] {
    return [...this.#tokens.values()].sort((a, b) => a.id - b.id).map(info);
  }

  /** The token stops working before the deletion is committed; a failed commit puts it back. */
  async doDeleteApiKey(_ctx: AuthContext, id: number): Promise<void> {
    await this.#serial(async () => {
      const t = this.#tokens.get(id);
      if (t === undefined) throw QuiverError.notFound(`Access token not found: ${id}`);
      this.#unindex(t);
      try {
        await this.#commit(null, [], [id]);
      } catch (err) {
        this.#index(t);
        throw err;
      }
    });
  }

  /** Same id, name, permission and expiry; a new key. The old key stops working at once. */
  async doRotateApiKey(_ctx: AuthContext, id: number): Promise<ApiKeyCreated> {
    const apiKey = newApiKey();
    return this.#serial(async () => {
      const old = this.#tokens.get(id);
      if (old === undefined) throw QuiverError.notFound(`Access token not found: ${id}`);
      const t: TokenRecord = { ...old, digest: keyDigest(apiKey) };
      this.#unindex(old);
      try {
        await this.#commit(null, [t]);
      } catch (err) {
        this.#index(old);
        throw err;
      }
      this.#index(t);
      return created(t, apiKey);
    });
  }

  // ------------------------------------------------------------------ persistence

  #index(t: TokenRecord): void {
    this.#tokens.set(t.id, t);
    this.#byDigest.set(digestKey(t.digest), t);
  }

  #unindex(t: TokenRecord): void {
    this.#tokens.delete(t.id);
    this.#byDigest.delete(digestKey(t.digest));
  }

  /** Runs write operations one at a time, in arrival order; in cluster mode again when another node moved the state. */
  #serial<T>(op: () => Promise<T>): Promise<T> {
    const attempt = async (): Promise<T> => {
      for (let i = 1; ; i++) {
        try {
          return await op();
        } catch (e) {
          if (!(e instanceof StateMoved) || i >= CAS_ATTEMPTS) {
            if (e instanceof StateMoved) throw new QuiverError('ShardUnavailable', 'The shared auth state kept changing under this write; retry it');
            throw e;
          }
        }
      }
    };
    const run = this.#queue.then(attempt, attempt);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Writes state and tokens in one transaction, waits until it is on disk, then adopts the state. */
  async #commit(state: AuthStateRecord | null, put: TokenRecord[] = [], remove: number[] = []): Promise<void> {
    if (this.#replica !== null) {
      const r = await this.#replica.commit({ ifStateRevision: state === null ? null : this.#stateRevision, state, put, remove });
      if (!r.ok) {
        if (r.current === null) throw QuiverError.notFound('The cluster has no auth state');
        // Planned again from the newer state (the watch brings its tokens too).
        if (BigInt(r.current.stateRevision) > BigInt(this.#stateRevision)) this.#setState(r.current.state, r.current.stateRevision);
        throw new StateMoved();
      }
      this.#revision = BigInt(r.revision);
      if (state !== null) this.#setState(state, r.revision);
      // The callers (un)index the tokens they changed, as in single-node mode.
      void this.#cache().catch(() => undefined);
      return;
    }
    await this.#db.root.transaction(() => {
      if (state !== null) this.#db.state.putSync('state', state);
      for (const t of put) this.#db.tokens.putSync(t.id, t);
      for (const id of remove) this.#db.tokens.removeSync(id);
    });
    await this.#db.state.flushed;
    if (state !== null) this.#state = state;
  }
}
