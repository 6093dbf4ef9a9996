// The ClusterState (state.ts) as plain data, and how a replica's state is read from it: the main
// thread's mirror (src/main/cluster/state-mirror.ts) applies the etcd thread's messages to these
// maps and publishes them whole to the coordinating workers, which read them through a
// ClusterStateView, so a worker coordinating a request sees the replicas and peers the main
// thread sees (docs/request-path.md, "Cluster mode, across nodes").
//
// Invariants: a view never goes back to an older snapshot (versions grow with every change on
// the main thread; pushes to a replaced thread may cross); a replica is read the same way on
// either thread (replicasOf).

import { shardKey, type Assignment, type NodeStatus } from './assignments.js';
import type { ClusterState, PeerInfo, ReplicaInfo } from './state.js';

/** The main thread's mirror of the control plane at one moment. */
export interface ClusterStateSnapshot {
  /** Grows with every change the main thread applies. */
  version: number;
  nodeId: number;
  /** This process's boot id (a replica Active under another boot of this node is Partial). */
  bootId: string;
  /** Assignments by "<collectionId>/<shard>". */
  assignments: [string, Assignment][];
  /** Each node's last status report. */
  statuses: [number, NodeStatus][];
  /** The live peers (their lease held). */
  peers: PeerInfo[];
  /** Why this node refuses internal calls while its lease is not held (the 503's message). */
  notServingReason: string;
}

/**
 * A shard's replicas with their states and reported positions. A replica Active under an earlier
 * process of its node (restarted within its lease) reads Partial until the controller has seen it
 * caught up, rather than serving now and flipping when it notices.
 */
export function replicasOf(
  assignment: Assignment | undefined,
  key: string,
  status: (node: number) => NodeStatus | undefined,
  self: { nodeId: number; bootId: string },
): ReplicaInfo[] {
  if (assignment === undefined) return [];
  return assignment.replicas.map((r) => {
    const s = status(r.node);
    const boot = r.node === self.nodeId ? self.bootId : s?.boot;
    const state = r.state === 'Active' && r.boot !== undefined && boot !== undefined && r.boot !== boot ? 'Partial' : r.state;
    return { node: r.node, state, appliedSeq: s?.shards[key]?.applied_seq ?? 0 };
  });
}

/** A ClusterState read from the snapshots the main thread publishes (a coordinating worker's). */
export class ClusterStateView implements ClusterState {
  #version = -1;
  #nodeId = 0;
  #bootId = '';
  #assign = new Map<string, Assignment>();
  #status = new Map<number, NodeStatus>();
  #peers = new Map<number, PeerInfo>();
  #notServing = 'This node is not serving: its cluster lease has lapsed';
  readonly #listeners = new Set<() => void>();

  get nodeId(): number {
    return this.#nodeId;
  }

  /** Whether a snapshot has arrived. */
  get known(): boolean {
    return this.#version >= 0;
  }

  /** Takes a snapshot newer than the one held, then tells the listeners. */
  apply(snapshot: ClusterStateSnapshot): void {
    if (snapshot.version <= this.#version) return;
    this.#version = snapshot.version;
    this.#nodeId = snapshot.nodeId;
    this.#bootId = snapshot.bootId;
    this.#assign = new Map(snapshot.assignments);
    this.#status = new Map(snapshot.statuses);
    this.#peers = new Map(snapshot.peers.map((p) => [p.id, p]));
    this.#notServing = snapshot.notServingReason;
    for (const l of [...this.#listeners]) {
      try {
        l();
      } catch {
        // A listener's failure is its own; the others still run.
      }
    }
  }

  /** Why this node refuses internal calls while its lease is not held. */
  get notServingReason(): string {
    return this.#notServing;
  }

  replicas(collectionId: number, shard: number): ReplicaInfo[] {
    const key = shardKey(collectionId, shard);
    return replicasOf(this.#assign.get(key), key, (n) => this.#status.get(n), { nodeId: this.#nodeId, bootId: this.#bootId });
  }

  epoch(collectionId: number, shard: number): number {
    return this.#assign.get(shardKey(collectionId, shard))?.epoch ?? 0;
  }

  peer(node: number): PeerInfo | undefined {
    return this.#peers.get(node);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
