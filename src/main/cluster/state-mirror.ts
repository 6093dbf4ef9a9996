// The main thread's ClusterState (state.ts): the assignments, the nodes' status reports and the
// live peers, as the etcd thread's mirror messages (cluster-mirror.ts, nodes-mirror.ts) deliver
// them. Plain maps read synchronously on every request; listeners run after each change.

import { randomBytes } from 'node:crypto';
import { shardKey, type Assignment, type NodeStatus } from '../../shared/cluster/assignments.js';
import type { FromEtcdThread, NodeRecord } from '../../shared/cluster/messages.js';
import type { ClusterState, PeerInfo, ReplicaInfo } from '../../shared/cluster/state.js';
import { replicasOf, type ClusterStateSnapshot } from '../../shared/cluster/state-view.js';

/** This process's boot id, in every status report: the controller tells a restart within the lease by it. */
export const BOOT_ID = randomBytes(8).toString('hex');

export class ClusterStateMirror implements ClusterState {
  readonly nodeId: number;
  readonly #assign = new Map<string, Assignment>();
  readonly #status = new Map<number, NodeStatus>();
  #peers = new Map<number, PeerInfo>();
  readonly #listeners = new Set<() => void>();
  #assignLoaded = false;
  #assignVersion = 0;

  constructor(nodeId: number) {
    this.nodeId = nodeId;
  }

  /** Grows with every change of the assignments (not of reports or peers): who follows only them compares it. */
  get assignVersion(): number {
    return this.#assignVersion;
  }

  /** Whether the assignments were read once (before that, every shard looks unassigned). */
  get loaded(): boolean {
    return this.#assignLoaded;
  }

  replicas(collectionId: number, shard: number): ReplicaInfo[] {
    const key = shardKey(collectionId, shard);
    return replicasOf(this.#assign.get(key), key, (n) => this.#status.get(n), { nodeId: this.nodeId, bootId: BOOT_ID });
  }

  /** All of it as plain data, for the coordinating workers (state-view.ts; the publisher stamps version and lease). */
  snapshot(): Omit<ClusterStateSnapshot, 'version' | 'notServingReason'> {
    return {
      nodeId: this.nodeId,
      bootId: BOOT_ID,
      assignments: [...this.#assign],
      statuses: [...this.#status],
      peers: [...this.#peers.values()],
    };
  }

  epoch(collectionId: number, shard: number): number {
    return this.#assign.get(shardKey(collectionId, shard))?.epoch ?? 0;
  }

  peer(node: number): PeerInfo | undefined {
    return this.#peers.get(node);
  }

  /** Every live peer, by id. */
  peers(): PeerInfo[] {
    return [...this.#peers.values()];
  }

  /** Every assignment, by "<collectionId>/<shard>" (the follow loop and the cluster API iterate them). */
  assignments(): ReadonlyMap<string, Assignment> {
    return this.#assign;
  }

  /** The node's last status report, if its key exists. */
  status(node: number): NodeStatus | undefined {
    return this.#status.get(node);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Applies one message of the etcd thread; true when it was one of the state's. */
  apply(m: FromEtcdThread): boolean {
    switch (m.type) {
      case 'assign-snapshot':
        this.#assign.clear();
        for (const a of m.assignments) this.#assign.set(shardKey(a.collection, a.shard), a.assignment);
        this.#assignLoaded = true;
        break;
      case 'assign-put':
        this.#assign.set(shardKey(m.collection, m.shard), m.assignment);
        break;
      case 'assign-delete':
        this.#assign.delete(shardKey(m.collection, m.shard));
        break;
      case 'status-snapshot':
        this.#status.clear();
        for (const s of m.statuses) this.#status.set(s.node, s.status);
        break;
      case 'status-put':
        this.#status.set(m.node, m.status);
        break;
      case 'status-delete':
        this.#status.delete(m.node);
        break;
      case 'nodes':
        this.#peers = new Map(m.nodes.map((n: NodeRecord) => [n.id, { id: n.id, advertise: n.advertise, rest_port: n.rest_port, grpc_port: n.grpc_port }]));
        break;
      default:
        return false;
    }
    if (m.type.startsWith('assign-')) this.#assignVersion++;
    for (const l of [...this.#listeners]) {
      try {
        l();
      } catch {
        // A listener's failure is its own; the others still run
      }
    }
    return true;
  }
}
