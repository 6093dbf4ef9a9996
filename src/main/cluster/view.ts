// What the REST layer sees of the cluster (types only, so importing it loads nothing: single-node
// start-up never imports the cluster modules). node.ts's ClusterNode implements it.

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
}
