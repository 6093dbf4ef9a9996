// The auth state shared by every node of a cluster (issue 16: API keys, the auth switch and the
// admin's credentials), kept under /quiver/auth/ and served to the main thread's AuthService from
// the etcd thread:
//   auth/state        {auth_enabled, jwt_secret (base64), admin, next_token_id}
//   auth/tokens/<id>  a token record (its key's SHA-256 digest in base64, never the key)
// Invariants: every change of auth/state is a compare-and-swap on its mod revision, so two nodes
// creating keys at once never hand out one token id twice; a token's create writes the state (its
// id counter) and the token in one transaction. The mirror posts whole snapshots, each as of one
// etcd revision (one watch response at a time, never half a transaction), so a node never sees a
// key's counter moved without the key.

import type { Etcd3, IKeyValue, Watcher } from 'etcd3';
import type { AuthStateRecord, TokenRecord } from '../shared/db.js';
import type { AuthCommit, AuthCommitResult, AuthSnapshot } from '../shared/cluster/auth-replica.js';
import type { FromEtcdThread } from '../shared/cluster/messages.js';
import { PrefixMirror } from '../shared/cluster/prefix-mirror.js';

const STATE = '/quiver/auth/state';
const TOKENS = '/quiver/auth/tokens/';
const RETRY_MS = 500;

const b64 = (u: Uint8Array): string => Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString('base64');
const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

type StoredState = Omit<AuthStateRecord, 'jwt_secret'> & { jwt_secret: string };
type StoredToken = Omit<TokenRecord, 'digest'> & { digest: string };

export const encodeState = (s: AuthStateRecord): string => JSON.stringify({ ...s, jwt_secret: b64(s.jwt_secret) } satisfies StoredState);
export const encodeToken = (t: TokenRecord): string => JSON.stringify({ ...t, digest: b64(t.digest) } satisfies StoredToken);

function decodeState(v: Buffer): AuthStateRecord {
  const s = JSON.parse(v.toString('utf8')) as StoredState;
  return { ...s, jwt_secret: bytes(s.jwt_secret) };
}

function decodeToken(v: Buffer): TokenRecord | null {
  try {
    const t = JSON.parse(v.toString('utf8')) as StoredToken;
    return typeof t.id === 'number' ? { ...t, digest: bytes(t.digest) } : null;
  } catch {
    return null;
  }
}

export class AuthSync {
  readonly #client: Etcd3;
  readonly #emit: (m: FromEtcdThread) => void;
  #state: { value: AuthStateRecord; modRevision: string } | null = null;
  readonly #tokens = new Map<string, TokenRecord>();
  /**
   * The watch from join's read on. Not read again: a failed watch creation is retried from the
   * last revision delivered, and each delivered response posts a whole snapshot.
   */
  readonly #mirror: PrefixMirror;

  constructor(client: Etcd3, emit: (m: FromEtcdThread) => void) {
    this.#client = client;
    this.#emit = emit;
    const watching = (watcher: Watcher): void => {
      watcher.on('data', (res) => {
        if (res.events.length === 0) return;
        for (const e of res.events) this.#apply(e.kv, e.type === 'Delete' ? 'Delete' : 'Put');
        if (this.#state !== null) this.#emit({ type: 'auth', snapshot: this.#snapshot(res.header.revision) });
      });
    };
    this.#mirror = new PrefixMirror(client, [{ prefix: '/quiver/auth/', watching }], {
      onRetry: (e) => this.#emit({ type: 'log', level: 'warn', msg: 'cluster auth watch failed; retrying', fields: { err: e instanceof Error ? e.message : String(e) } }),
      retryMs: RETRY_MS,
    });
  }

  /**
   * Seeds the shared state with this node's when the cluster has none yet (the first node's keys
   * and secret carry over), then mirrors it; resolves with the shared snapshot.
   */
  async join(local: AuthStateRecord, tokens: TokenRecord[]): Promise<AuthSnapshot> {
    const seed = this.#client
      .if(STATE, 'Create', '==', 0)
      .then(this.#client.put(STATE).value(encodeState(local)), ...tokens.map((t) => this.#client.put(`${TOKENS}${t.id}`).value(encodeToken(t))));
    await seed.commit();
    const all = await this.#client.getAll().prefix('/quiver/auth/').exec();
    this.#tokens.clear();
    for (const kv of all.kvs) this.#apply(kv, 'Put');
    const snap = this.#snapshot(all.header.revision);
    void this.#mirror.startAt(all.header.revision);
    return snap;
  }

  #apply(kv: IKeyValue, type: 'Put' | 'Delete'): void {
    const key = kv.key.toString('utf8');
    if (key === STATE) {
      if (type === 'Put') this.#state = { value: decodeState(kv.value), modRevision: kv.mod_revision };
    } else if (key.startsWith(TOKENS)) {
      const t = type === 'Put' ? decodeToken(kv.value) : null;
      if (t === null) this.#tokens.delete(key);
      else this.#tokens.set(key, t);
    }
  }

  #snapshot(revision: string): AuthSnapshot {
    if (this.#state === null) throw new Error('the cluster has no auth state (auth/state missing)');
    return { revision, stateRevision: this.#state.modRevision, state: this.#state.value, tokens: [...this.#tokens.values()] };
  }

  /** One change, conditioned on auth/state's mod revision when it writes the state. */
  async commit(c: AuthCommit): Promise<AuthCommitResult> {
    const ops = [
      ...(c.state === null ? [] : [this.#client.put(STATE).value(encodeState(c.state))]),
      ...c.put.map((t) => this.#client.put(`${TOKENS}${t.id}`).value(encodeToken(t))),
      ...c.remove.map((id) => this.#client.delete().key(`${TOKENS}${id}`)),
    ];
    if (c.state === null) {
      const r = await this.#client.if(STATE, 'Create', '>', 0).then(...ops).commit();
      return r.succeeded ? { ok: true, revision: r.header.revision } : { ok: false, current: null };
    }
    const r = await this.#client.if(STATE, 'Mod', '==', c.ifStateRevision ?? '0').then(...ops).else(this.#client.get(STATE)).commit();
    if (r.succeeded) return { ok: true, revision: r.header.revision };
    const kv = r.responses[0]?.response_range?.kvs[0];
    return { ok: false, current: kv === undefined ? null : { state: decodeState(kv.value), stateRevision: kv.mod_revision } };
  }

  stop(): Promise<void> {
    return this.#mirror.stop();
  }
}
