// The main thread's end of the cluster API and of the shared auth state: requests to the etcd
// thread, each answered by a reply carrying its id, and the thread's mirrors (the auth state,
// the transfers in flight). ClusterNode owns one and forwards the thread's LinkEvents to it.

import { QuiverError } from '../../shared/errors.js';
import type { AuthStateRecord, TokenRecord } from '../../shared/db.js';
import type { AuthCommit, AuthCommitResult, AuthReplica, AuthSnapshot } from '../../shared/cluster/auth-replica.js';
import type { ClusterRequest, ClusterResult, Transfer } from '../../shared/cluster/cluster-ops.js';
import type { LinkEvent, LinkRequest } from '../../shared/cluster/messages.js';

/** How long an auth request to etcd may take before it fails (503): etcd unreachable. */
const AUTH_TIMEOUT_MS = 10_000;
/** What a cluster request may take beyond its own wait for the controller (the etcd round trips). */
const REQUEST_MARGIN_MS = 5_000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type TransferInfo = { collectionId: number } & Transfer;

export class ClusterLink implements AuthReplica {
  readonly #post: (m: LinkRequest) => void;
  readonly #pending = new Map<number, { res: (v: unknown) => void; rej: (e: Error) => void }>();
  #nextId = 1;
  #transfers: TransferInfo[] = [];
  readonly #authListeners: ((s: AuthSnapshot) => void)[] = [];

  constructor(post: (m: LinkRequest) => void) {
    this.#post = post;
  }

  receive(m: LinkEvent): void {
    switch (m.type) {
      case 'link-reply': {
        const p = this.#pending.get(m.id);
        if (p === undefined) return;
        this.#pending.delete(m.id);
        if (m.ok) p.res(m.value);
        else p.rej(new QuiverError('ShardUnavailable', `etcd: ${m.message}`));
        break;
      }
      case 'auth':
        for (const l of this.#authListeners) l(m.snapshot);
        break;
      case 'transfers':
        this.#transfers = m.transfers;
        break;
    }
  }

  /** Posts a request; rejects with a 503 when the thread has not answered within `timeoutMs`. */
  #ask<T>(m: DistributiveOmit<LinkRequest, 'id'>, timeoutMs: number): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((res, rej) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        rej(new QuiverError('ShardUnavailable', `etcd did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (): void => clearTimeout(timer);
      this.#pending.set(id, {
        res: (v) => {
          done();
          res(v as T);
        },
        rej: (e) => {
          done();
          rej(e);
        },
      });
      this.#post({ ...m, id } as LinkRequest);
    });
  }

  /** Sends a cluster operation to the controller through etcd and waits (bounded) for its result. */
  clusterRequest(request: ClusterRequest, timeoutMs: number): Promise<ClusterResult> {
    return this.#ask<ClusterResult>({ type: 'cluster-request', request, timeoutMs }, timeoutMs + REQUEST_MARGIN_MS);
  }

  /** The transfers in flight of a collection, as the etcd mirror last showed them. */
  transfers(collectionId: number): TransferInfo[] {
    return this.#transfers.filter((t) => t.collectionId === collectionId);
  }

  join(state: AuthStateRecord, tokens: TokenRecord[]): Promise<AuthSnapshot> {
    return this.#ask<AuthSnapshot>({ type: 'auth-join', state, tokens }, AUTH_TIMEOUT_MS);
  }

  commit(commit: AuthCommit): Promise<AuthCommitResult> {
    return this.#ask<AuthCommitResult>({ type: 'auth-commit', commit }, AUTH_TIMEOUT_MS);
  }

  onSnapshot(listener: (s: AuthSnapshot) => void): void {
    this.#authListeners.push(listener);
  }
}
