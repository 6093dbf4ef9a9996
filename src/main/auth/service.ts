// The authentication layer (docs/interface.md sections 2-5, docs/decisions.md section 3), independent of any
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
// src/control/auth-sync.ts). A write commits there first (a compare-and-swap on the state,
// planned again from the newer state when another node changed it meanwhile), is adopted here,
// and reaches the other nodes through their watch; LMDB keeps a copy of the last state seen.
// Checks stay here and only here: the replica only moves state.
//
// Secrets: the admin password is kept only as an argon2id hash; API keys only as SHA-256
// digests, found by digest and compared in constant time; no secret is ever put in an error
// message or a log line.
//
// This file holds AuthService itself: its state, the per-request checks, the endpoint
// operations and the write path. The parts that need none of its state live beside it:
// authorize.ts (the per-request decision), api-keys.ts (token requests, the token table and
// the tokens' public form), login.ts (the failed-login limit and the password check) and
// bootstrap.ts (the options and the local state at start). This module re-exports what it
// exported before, so its importers are unchanged.

import { createSecretKey, type KeyObject } from 'node:crypto';
import type { AuthDb, AuthStateRecord, TokenRecord } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { ApiKeyCreated, ApiKeyInfo } from '../../shared/schemas/auth.js';
import type { AuthReplica, AuthSnapshot } from '../../shared/cluster/auth-replica.js';
import { apiKeyTerms, created, info, TokenTable, updatedToken, type ApiKeyRequest, type ApiKeyUpdate } from './api-keys.js';
import { ANONYMOUS_DISABLED, ANONYMOUS_ENABLED, MISSING_CREDENTIAL, authorize, credentialOf, needsCredential } from './authorize.js';
import { loadLocalState, type AuthOptions } from './bootstrap.js';
import { ANONYMOUS, unauthorized, type AuthContext, type GetHeader, type Principal } from './context.js';
import { signAdminJwt, verifyJwt, type QdrantClaims } from './jwt.js';
import { keyDigest, looksLikeApiKey, newApiKey, sameDigest } from './keys.js';
import { PASSWORD_RULE, hashPassword, meetsPasswordPolicy } from './password.js';
import { PERM, type Access } from './permissions.js';
import { MANAGE, grant, grantsOfToken, type Grants } from './scopes.js';
import type { Target } from './authorize.js';
import { LoginGate, type LoginResult } from './login.js';

export { MAX_EXPIRES_IN_SECONDS, type ApiKeyRequest, type ApiKeyUpdate } from './api-keys.js';
export { MISSING_CREDENTIAL, authorize, credentialOf } from './authorize.js';
export type { AuthOptions } from './bootstrap.js';
export { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, type LoginResult } from './login.js';

const INVALID_CREDENTIAL = 'Invalid API key or JWT';

/** Whether a point of the collection has every key at its value (a Qdrant JWT's value_exists). */
export type ValueExists = (collection: string, matches: readonly { key: string; value: string | number | boolean }[]) => Promise<boolean>;

/** Another node changed the shared state since this one read it: the write is planned again. */
class StateMoved extends Error {}

/** Times a write is planned again after another node changed the shared state. */
const CAS_ATTEMPTS = 10;

export class AuthService {
  readonly #db: AuthDb;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #login: LoginGate;
  #state: AuthStateRecord;
  #jwtKey: KeyObject;
  readonly #replica: AuthReplica | null;
  /** Cluster mode: auth/state's mod revision as last seen (the next write's compare). */
  #stateRevision = '0';
  /** Cluster mode: the etcd revision of the state held here; older snapshots are ignored. */
  #revision = 0n;
  readonly #tokens = new TokenTable();
  /** Looks for a point a Qdrant JWT's value_exists names (the engine's count); none until the engine is up. */
  #valueExists: ValueExists | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  /** What start-up did (for the log): secret generated or replaced, admin created. */
  readonly notes: readonly string[];

  private constructor(db: AuthDb, state: AuthStateRecord, tokens: TokenRecord[], opts: AuthOptions, notes: string[]) {
    this.#db = db;
    this.#replica = opts.replica ?? null;
    this.#ttl = opts.jwtTtlSeconds;
    this.#now = opts.now ?? Date.now;
    this.#login = new LoginGate(opts.loginLimit);
    this.#state = state;
    this.#jwtKey = createSecretKey(Buffer.from(state.jwt_secret));
    for (const t of tokens) this.#tokens.index(t);
    this.notes = notes;
  }

  /**
   * Loads the auth state, creating it on first start: a new random JWT secret, auth disabled.
   * SERVICE_JWT_SECRET replaces the secret and is persisted; SERVICE_ADMIN_PASSWORD creates the
   * admin if there is none. A secret shorter than 256 bits or a password against the policy
   * stops start-up.
   */
  static async open(db: AuthDb, opts: AuthOptions): Promise<AuthService> {
    const { state, tokens, override, notes } = await loadLocalState(db, opts);
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
    for (const t of s.tokens) this.#tokens.index(t);
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

  /** Gives the check of value_exists claims its engine; until then such a JWT is refused. */
  checkValueExistsWith(check: ValueExists): void {
    this.#valueExists = check;
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

  /**
   * authenticate() when the rule needs it, then authorize() for the target (authorize.ts Target).
   * The one entry point of REST and gRPC. The context carries the tenant binding that applies to
   * the target collection, if any.
   */
  async guard(access: Access, getHeader: GetHeader, target: Target = null): Promise<AuthContext> {
    const enabled = this.#state.auth_enabled;
    const ctx = needsCredential(access, enabled, this.adminExists)
      ? await this.authenticate(getHeader)
      : enabled
        ? ANONYMOUS_ENABLED
        : ANONYMOUS_DISABLED;
    const tenant = authorize(ctx, access, this.adminExists, target);
    return tenant === null ? ctx : { ...ctx, tenant };
  }

  /** The decision for a collection learned after guard() (gRPC: the message's collection_name). */
  forCollection(ctx: AuthContext, access: Access, collection: string): AuthContext {
    const tenant = authorize(ctx, access, this.adminExists, collection);
    return tenant === null ? ctx : { ...ctx, tenant };
  }

  async #identify(token: string): Promise<Principal> {
    if (looksLikeApiKey(token)) {
      const digest = keyDigest(token);
      const t = this.#tokens.byDigest(digest);
      if (t === undefined || !sameDigest(t.digest, digest)) throw unauthorized(INVALID_CREDENTIAL);
      if (t.expires_at !== null && this.#now() >= t.expires_at) throw unauthorized(INVALID_CREDENTIAL);
      return { kind: 'api_key', tokenId: t.id, permission: t.permission, grants: grantsOfToken(t) };
    }
    if (token.split('.').length !== 3) throw unauthorized(INVALID_CREDENTIAL);
    const check = await verifyJwt(this.#jwtKey, token, this.#now());
    if (!check.ok) throw unauthorized(check.reason);
    if (check.kind === 'qdrant') return this.#qdrantPrincipal(check.claims);
    const admin = this.#state.admin;
    if (admin === null || check.passwordEpoch !== admin.password_epoch) {
      throw unauthorized('JWT revoked: the admin password has changed since it was issued');
    }
    return { kind: 'admin_jwt', jti: check.jti };
  }

  /**
   * A JWT with Qdrant's claims: "r" reads everything, "m" may do everything but Quiver's own token
   * administration, a list grants "r" or "rw" (no collection changes) on the collections it names.
   * `value_exists` is checked on every request: the token holds while a matching point exists.
   */
  async #qdrantPrincipal(claims: QdrantClaims): Promise<Principal> {
    if (claims.valueExists !== null) {
      const { collection, matches } = claims.valueExists;
      const found = this.#valueExists === null ? false : await this.#valueExists(collection, matches).catch(() => false);
      if (!found) throw unauthorized(`Invalid JWT: value_exists finds no matching point in collection "${collection}"`);
    }
    const { access } = claims;
    if (access === 'r') return { kind: 'qdrant_jwt', permission: PERM.read, grants: null };
    if (access === 'm') return { kind: 'qdrant_jwt', permission: PERM.read | PERM.write | MANAGE, grants: null };
    const grants: Grants = {
      outside: 0,
      collections: access.map((e) => grant(e.collection, e.access === 'rw' ? PERM.read | PERM.write : PERM.read, null, true)),
    };
    return { kind: 'qdrant_jwt', permission: 0, grants };
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
    await this.#login.admit(address);
    const admin = await this.#login.verify(address, this.#state.admin, username, password);
    const jwt = await signAdminJwt(this.#jwtKey, admin.password_epoch, this.#ttl, this.#now());
    return { token: jwt.token, token_type: 'Bearer', expires_in: jwt.expiresIn };
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
    const { permission, scope, lifetimeMs } = apiKeyTerms(req);
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
        ...(scope === null ? {} : { scope }),
      };
      await this.#commit({ ...this.#state, next_token_id: id + 1 }, [t]);
      this.#tokens.index(t);
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
      this.#tokens.unindex(t);
      try {
        await this.#commit(null, [], [id]);
      } catch (err) {
        this.#tokens.index(t);
        throw err;
      }
    });
  }

  /**
   * PATCH /auth/api_key/{id}: the fields given replace the token's, the key stays. A narrower
   * permission or scope holds from the next request on this node, and on the others once the
   * change reaches them (cluster mode: the shared state's watch).
   */
  async doUpdateApiKey(_ctx: AuthContext, id: number, req: ApiKeyUpdate): Promise<ApiKeyInfo> {
    return info(await this.#replaceToken(id, (old) => updatedToken(old, req)));
  }

  /** Same id, name, permission and expiry; a new key. The old key stops working at once. */
  async doRotateApiKey(_ctx: AuthContext, id: number): Promise<ApiKeyCreated> {
    const apiKey = newApiKey();
    return created(await this.#replaceToken(id, (old) => ({ ...old, digest: keyDigest(apiKey) })), apiKey);
  }

  /** Replaces a token by its changed record: the old one stops working before the commit, and is put back if the commit fails. */
  #replaceToken(id: number, change: (old: TokenRecord) => TokenRecord): Promise<TokenRecord> {
    return this.#serial(async () => {
      const old = this.#tokens.get(id);
      if (old === undefined) throw QuiverError.notFound(`Access token not found: ${id}`);
      const t = change(old);
      this.#tokens.unindex(old);
      try {
        await this.#commit(null, [t]);
      } catch (err) {
        this.#tokens.index(old);
        throw err;
      }
      this.#tokens.index(t);
      return t;
    });
  }

  // ------------------------------------------------------------------ persistence

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
