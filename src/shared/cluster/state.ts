// What the data plane (remote reads, writes' consistency, the cluster API) reads of the control
// plane's mirror on the main thread: the replicas assigned to each shard with their states and
// reported positions, and the live peers' addresses. Types only: single-node start-up loads
// nothing of the cluster. The etcd side (catalog, assignments, status keys) implements it.

/** A replica's state, as Qdrant names shard replica states. */
export type ReplicaState = 'Initializing' | 'Partial' | 'Active' | 'Dead';

/** One replica of one shard, as /quiver/assign/<collectionId>/<shard> holds it, with its node's last report. */
export interface ReplicaInfo {
  node: number;
  state: ReplicaState;
  /** The applied_seq its node last reported under /quiver/status (0 when none yet). */
  appliedSeq: number;
}

/** A live node (its lease held), as /quiver/nodes/<id> holds it. */
export interface PeerInfo {
  id: number;
  /** host:port of its internal port. */
  advertise: string;
  rest_port: number;
  grpc_port: number;
}

export interface ClusterState {
  readonly nodeId: number;
  /** The replicas of a shard, in assignment order; empty when the shard has no assignment yet. */
  replicas(collectionId: number, shard: number): ReplicaInfo[];
  /** The assignment's epoch (grows with every change the controller makes to it). */
  epoch(collectionId: number, shard: number): number;
  /** A live peer, or undefined when its lease is gone. */
  peer(node: number): PeerInfo | undefined;
  /** Called after any change of assignments, reports or peers; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}
