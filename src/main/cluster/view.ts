// What the REST layer sees of the cluster (types only, so importing it loads nothing: single-node
// start-up never imports the cluster modules). node.ts's ClusterNode implements it.

import type { ClusterRequest, ClusterResult } from '../../shared/cluster/cluster-ops.js';
import type { TransferInfo } from './link.js';
import type { ClusterState } from '../../shared/cluster/state.js';

/** GET /cluster's enabled shape (Qdrant's ClusterStatus), as the OpenAPI reference has it. */
export interface ClusterStatusEnabled {
  status: 'enabled';
  peer_id: number;
  peers: Record<string, { uri: string }>;
  raft_info: { term: number; commit: number; pending_operations: number; leader: number | null; role: 'Leader' | 'Follower' | null; is_voter: boolean };
  consensus_thread_status: { consensus_thread_status: 'working'; last_update: string } | { consensus_thread_status: 'stopped_with_err'; err: string };
  message_send_failures: Record<string, { count: number; latest_error?: string | null; latest_error_timestamp?: string | null }>;
}

export interface ClusterView {
  /** Whether this node holds its membership lease now; data requests are refused while it does not. */
  leaseHeld(): boolean;
  /** The refusal's message. */
  notServingReason(): string;
  /** The refusal's Retry-After. */
  readonly retryAfterSeconds: number;
  status(): ClusterStatusEnabled;
  /** What Qdrant's cluster API reads and asks (service/cluster.ts); absent in fakes of the lease gate. */
  readonly api?: ClusterApi;
}

/** The cluster API's view of this node: its id, the control plane's mirror, the controller's requests. */
export interface ClusterApi {
  readonly nodeId: number;
  /** The assignments mirrored from etcd; null until the control plane's mirror is up. */
  readonly state: ClusterState | null;
  /** Sends an operation to the controller (through etcd) and waits up to timeoutMs for its result. */
  clusterRequest(request: ClusterRequest, timeoutMs: number): Promise<ClusterResult>;
  /** The transfers in flight of a collection. */
  transfers(collectionId: number): TransferInfo[];
}
