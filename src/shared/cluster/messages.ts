// The messages between the main thread and the etcd thread (etcd-thread.ts), one union each way.
// They stay out of src/shared/protocol.ts: that is the shard workers' protocol, and this thread
// speaks only to the main thread.

import type { AuthStateRecord, TokenRecord } from '../db.js';
import type { AuthCommit, AuthCommitResult, AuthSnapshot } from './auth-replica.js';
import type { ClusterRequest, ClusterResult, Transfer } from './cluster-ops.js';
import type { Assignment, NodeStatus } from './assignments.js';
import type { CatalogEntry } from './catalog.js';

/** What a node publishes under /quiver/nodes/<id> (lease-bound). */
export interface NodeRecord {
  id: number;
  /** host:port of the internal port (SERVICE_CLUSTER_ADVERTISE). */
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
  /** How long a Dead replica waits before the controller places a replacement (cluster.dead_grace_seconds). */
  deadGraceMs: number;
}

/** The cluster API's and the shared auth state's requests (link.ts); each answered by a LinkReply with its id. */
export type LinkRequest =
  | { type: 'cluster-request'; id: number; request: ClusterRequest; timeoutMs: number }
  | { type: 'auth-join'; id: number; state: AuthStateRecord; tokens: TokenRecord[] }
  | { type: 'auth-commit'; id: number; commit: AuthCommit };

export type LinkReply =
  | { type: 'link-reply'; id: number; ok: true; value: ClusterResult | AuthSnapshot | AuthCommitResult }
  | { type: 'link-reply'; id: number; ok: false; message: string };

/** What link.ts receives: the replies, the shared auth state and the transfers in flight. */
export type LinkEvent = LinkReply | { type: 'auth'; snapshot: AuthSnapshot } | { type: 'transfers'; transfers: ({ collectionId: number } & Transfer)[] };

/** Catalog changes the main thread asks of etcd (catalog.ts), answered by a 'reply' with the same id. */
export type CatalogRequest =
  | { op: 'create'; name: string; config: unknown }
  | { op: 'markDeleting'; name: string }
  | { op: 'remove'; name: string; id: number }
  | { op: 'update'; name: string; id: number; config: unknown };

export type CatalogReply =
  | { op: 'create'; created: true; entry: CatalogEntry; rev: number }
  | { op: 'create'; created: false; existing: CatalogEntry }
  | { op: 'markDeleting'; entry: CatalogEntry | null; rev: number }
  | { op: 'remove'; rev: number | null }
  | { op: 'update'; rev: number | null };

export type ToEtcdThread =
  | { type: 'register'; node: NodeRecord }
  | { type: 'request'; id: number; req: CatalogRequest }
  /** This node's status report (status/<node>, lease-bound); written again after every new lease. */
  | { type: 'report'; status: NodeStatus }
  | { type: 'stop' }
  | LinkRequest;

export type FromEtcdThread =
  | { type: 'connected' }
  | { type: 'failed'; message: string }
  | { type: 'registered'; lease: string }
  | { type: 'lease-lost'; reason: string }
  /** This node's id was removed from the cluster (removed/<id>): it has left and must not serve. */
  | { type: 'removed'; at: string | null }
  | { type: 'nodes'; nodes: NodeRecord[] }
  | { type: 'raft'; term: string; commit: string; at: string }
  | { type: 'leader'; id: number | null }
  | { type: 'controller'; elected: boolean; revision: string | null }
  | { type: 'reply'; id: number; ok: true; reply: CatalogReply }
  | { type: 'reply'; id: number; ok: false; message: string }
  /** The catalog as read at etcd revision `rev` (replaces what was held: a watch started over). */
  | { type: 'catalog-snapshot'; rev: number; entries: { name: string; entry: CatalogEntry; rev: number }[] }
  | { type: 'catalog-put'; name: string; entry: CatalogEntry; rev: number }
  | { type: 'catalog-delete'; name: string; rev: number }
  | { type: 'assign-snapshot'; assignments: { collection: number; shard: number; assignment: Assignment }[] }
  | { type: 'assign-put'; collection: number; shard: number; assignment: Assignment }
  | { type: 'assign-delete'; collection: number; shard: number }
  | { type: 'status-snapshot'; statuses: { node: number; status: NodeStatus }[] }
  | { type: 'status-put'; node: number; status: NodeStatus }
  | { type: 'status-delete'; node: number }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields: Record<string, unknown> }
  | { type: 'stopped' }
  | LinkEvent;

/** The epoch-based clock both threads share (each thread's performance.now() has its own origin). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
