// The seam between the auth service and a shared auth store (cluster mode: etcd, through the etcd
// thread, src/control/auth-sync.ts). Types only: single-node start-up loads nothing of it.

import type { AuthStateRecord, TokenRecord } from '../db.js';

/** The shared auth state as of one etcd revision. */
export interface AuthSnapshot {
  revision: string;
  /** auth/state's mod revision: the compare of the next change of the state. */
  stateRevision: string;
  state: AuthStateRecord;
  tokens: TokenRecord[];
}

/** One change: the new state (null: unchanged) and the tokens written and removed, in one transaction. */
export interface AuthCommit {
  ifStateRevision: string | null;
  state: AuthStateRecord | null;
  put: TokenRecord[];
  remove: number[];
}

/** Committed at `revision`; or refused because the state changed since (`current`, to plan again). */
export type AuthCommitResult = { ok: true; revision: string } | { ok: false; current: { state: AuthStateRecord; stateRevision: string } | null };

export interface AuthReplica {
  /** Seeds the shared state with this node's when there is none; resolves with the shared state. */
  join(state: AuthStateRecord, tokens: TokenRecord[]): Promise<AuthSnapshot>;
  commit(c: AuthCommit): Promise<AuthCommitResult>;
  /** Each later snapshot, in revision order (watch-driven). */
  onSnapshot(listener: (s: AuthSnapshot) => void): void;
}
