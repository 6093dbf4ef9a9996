// The messages between the main thread and the etcd thread (etcd-thread.ts), one union each way.
// They stay out of src/shared/protocol.ts: that is the shard workers' protocol, and this thread
// speaks only to the main thread.

import type { AuthStateRecord, TokenRecord } from '../../shared/db.js';
import type { AuthCommit, AuthCommitResult, AuthSnapshot } from '../auth/replica.js';
import type { ClusterRequest, ClusterResult, Transfer } from './cluster-ops.js';

/** What a node publishes under /quiver/nodes/<id> (lease-bound). */
export interface NodeRecord {
  id: number;
  /** host:port of the internal gRPC port (SERVICE_CLUSTER_ADVERTISE). */
  advertise: string;
  rest_port: number;
  grpc_port: number;
  /** Capacity, for placement: worker threads and the machine's memory. */
  workers: number;
  memory_bytes: number;
  version: string;
}

export interface EtcdThreadData {
  endpoints: string[];
  nodeId: number;
  leaseSeconds: number;
  /** How long start-up waits for etcd before it refuses to start. */
  connectTimeoutMs: number;
  /** One BigInt64: when this node's lease expires at the latest, in ms since the epoch (0: no lease). */
  leaseExpiry: SharedArrayBuffer;
}

export type ToEtcdThread = { type: 'register'; node: NodeRecord } | { type: 'stop' } | LinkRequest;

/** The cluster API's and the shared auth state's requests (link.ts); each answered by a LinkReply with its id. */
export type LinkRequest =
  | { type: 'cluster-request'; id: number; request: ClusterRequest; timeoutMs: number }
  | { type: 'auth-join'; id: number; state: AuthStateRecord; tokens: TokenRecord[] }
  | { type: 'auth-commit'; id: number; commit: AuthCommit };

export type LinkReply =
  | { type: 'reply'; id: number; ok: true; value: ClusterResult | AuthSnapshot | AuthCommitResult }
  | { type: 'reply'; id: number; ok: false; message: string };

/** What link.ts receives: the replies, the shared auth state and the transfers in flight. */
export type LinkEvent = LinkReply | { type: 'auth'; snapshot: AuthSnapshot } | { type: 'transfers'; transfers: ({ collectionId: number } & Transfer)[] };

export type FromEtcdThread =
  | { type: 'connected' }
  | { type: 'failed'; message: string }
  | { type: 'registered'; lease: string }
  | { type: 'lease-lost'; reason: string }
  | { type: 'nodes'; nodes: NodeRecord[] }
  | { type: 'raft'; term: string; commit: string; at: string }
  | { type: 'leader'; id: number | null }
  | { type: 'controller'; elected: boolean; revision: string | null }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields: Record<string, unknown> }
  | { type: 'stopped' }
  | LinkEvent;

/** The epoch-based clock both threads share (each thread's performance.now() has its own origin). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
