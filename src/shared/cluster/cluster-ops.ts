// Qdrant's collection cluster operations (move_shard, replicate_shard, drop_replica,
// abort_transfer) and peer removal, as pure changes of one shard's assignment. Both threads load
// it: the main thread for the request types, the controller (etcd thread, cluster-ops-server.ts)
// to decide. Pure so that every refusal is tested without etcd.
//
// Invariants of what `plan` returns:
// - make-before-break: a move or a replication only ADDS a replica (Initializing; the control
//   plane's lifecycle makes it Active once caught up) and records a transfer; the source of a
//   move is dropped later, by `settle`, only once the target is Active;
// - the last Active replica of a shard is never dropped;
// - a shard never holds two replicas on one node.

import type { ReplicaState } from './state.js';

/** /quiver/assign/<collectionId>/<shard> (CLUSTER-JOIN decision 4: the control plane's format). */
export interface Assignment {
  epoch: number;
  replicas: { node: number; state: ReplicaState; since?: number }[];
  /**
   * The shard's own number of replicas (not Dead) to keep, once an operation changed it: the
   * control plane keeps this many instead of the collection's replication_factor.
   */
  target?: number;
}

/** /quiver/transfers/<collectionId>/<shard>/<from>-<to>: a move or replication in flight. */
export interface Transfer {
  shard: number;
  from: number;
  to: number;
  /** Qdrant's meaning: true for a replication (the source stays), false for a move. */
  sync: boolean;
  method: TransferMethod | null;
}

export type TransferMethod = 'stream_records' | 'snapshot' | 'wal_delta' | 'resharding_stream_records';

export type ShardOp =
  | { kind: 'move_shard' | 'replicate_shard'; shard: number; from: number; to: number; method: TransferMethod | null }
  | { kind: 'drop_replica'; shard: number; peer: number }
  | { kind: 'abort_transfer'; shard: number; from: number; to: number };

/** What a node asks of the controller under /quiver/requests/<uuid>. */
export type ClusterRequest =
  | { type: 'shard'; collectionId: number; collection: string; shardCount: number; op: ShardOp }
  | { type: 'remove_peer'; peer: number; force: boolean };

/** The controller's answer under /quiver/requests/<uuid>/result. */
export type ClusterResult = { ok: true } | { ok: false; code: 'BadInput' | 'NotFound' | 'ShardUnavailable' | 'Internal'; message: string };

export class OpRefused extends Error {
  readonly code: 'BadInput' | 'NotFound';
  constructor(code: 'BadInput' | 'NotFound', message: string) {
    super(message);
    this.code = code;
    this.name = 'OpRefused';
  }
}

const bad = (m: string): OpRefused => new OpRefused('BadInput', m);

/** What to write for one shard: the new assignment (null: unchanged) and the transfers to add and remove. */
export interface ShardPlan {
  assignment: Assignment | null;
  addTransfers: Transfer[];
  removeTransfers: Transfer[];
}

export const transferId = (t: { from: number; to: number }): string => `${t.from}-${t.to}`;

/** The replicas the shard is meant to keep now: its own target, else those not Dead. */
function targetOf(a: Assignment): number {
  return a.target ?? a.replicas.filter((r) => r.state !== 'Dead').length;
}

function withReplicas(a: Assignment, replicas: Assignment['replicas'], target: number): Assignment {
  return { ...a, epoch: a.epoch + 1, replicas, target: Math.max(1, target) };
}

/**
 * The change `op` makes to a shard whose assignment is `a` (null: the shard has none) and whose
 * transfers are `transfers`; `live(node)` says whether a node holds its lease. Throws OpRefused
 * (400 or 404, Qdrant's wording where it has one) when the op cannot apply.
 */
export function plan(op: ShardOp, collection: string, a: Assignment | null, transfers: Transfer[], live: (node: number) => boolean): ShardPlan {
  if (a === null) throw new OpRefused('NotFound', `Shard ${op.shard} of collection ${collection} does not exist`);
  const has = (node: number): Assignment['replicas'][number] | undefined => a.replicas.find((r) => r.node === node);
  switch (op.kind) {
    case 'move_shard':
    case 'replicate_shard': {
      if (op.from === op.to) throw bad(`Source and target peers must differ: both are ${op.from}`);
      const src = has(op.from);
      if (src === undefined) throw bad(`Peer ${op.from} has no replica of shard ${op.shard} of collection ${collection}`);
      if (src.state !== 'Active') throw bad(`The replica of shard ${op.shard} on peer ${op.from} is ${src.state}, not Active: it cannot be a transfer's source`);
      if (!live(op.to)) throw new OpRefused('NotFound', `Peer ${op.to} does not exist (no live node has that id)`);
      if (has(op.to) !== undefined) throw bad(`Peer ${op.to} already has a replica of shard ${op.shard} of collection ${collection}`);
      if (transfers.some((t) => t.from === op.from && !t.sync) && op.kind === 'move_shard') {
        throw bad(`Shard ${op.shard} on peer ${op.from} is already being moved`);
      }
      const t: Transfer = { shard: op.shard, from: op.from, to: op.to, sync: op.kind === 'replicate_shard', method: op.method };
      // One more to keep: a replication for good, a move until its source is dropped (settle).
      return { assignment: withReplicas(a, [...a.replicas, { node: op.to, state: 'Initializing' }], targetOf(a) + 1), addTransfers: [t], removeTransfers: [] };
    }
    case 'drop_replica': {
      const r = has(op.peer);
      if (r === undefined) throw bad(`Peer ${op.peer} has no replica of shard ${op.shard} of collection ${collection}`);
      const othersActive = a.replicas.some((x) => x.node !== op.peer && x.state === 'Active');
      if (!othersActive) throw bad(`Cannot drop the replica of shard ${op.shard} on peer ${op.peer}: no other Active replica of that shard would remain`);
      // Transfers to or from it end with it.
      const gone = transfers.filter((t) => t.from === op.peer || t.to === op.peer);
      const target = targetOf(a) - (r.state === 'Dead' ? 0 : 1);
      return { assignment: withReplicas(a, a.replicas.filter((x) => x.node !== op.peer), target), addTransfers: [], removeTransfers: gone };
    }
    case 'abort_transfer': {
      const t = transfers.find((x) => x.from === op.from && x.to === op.to);
      if (t === undefined) throw new OpRefused('NotFound', `No transfer of shard ${op.shard} of collection ${collection} from peer ${op.from} to peer ${op.to}`);
      // The target is dropped unless it already serves (then the transfer has in effect finished).
      const target = has(op.to);
      const drop = target !== undefined && target.state !== 'Active';
      return { assignment: drop ? withReplicas(a, a.replicas.filter((x) => x.node !== op.to), targetOf(a) - 1) : null, addTransfers: [], removeTransfers: [t] };
    }
  }
}

/**
 * What the transfers in flight lead to once their targets changed state: a move whose target is
 * Active drops its source (make-before-break) and ends; a replication whose target is Active
 * ends; a transfer whose target replica is gone (dropped, replaced) ends. Null when nothing is due.
 */
export function settle(a: Assignment, transfers: Transfer[]): ShardPlan | null {
  const done: Transfer[] = [];
  let replicas = a.replicas;
  let keep = targetOf(a);
  for (const t of transfers) {
    const target = replicas.find((r) => r.node === t.to);
    if (target === undefined) {
      done.push(t);
      continue;
    }
    if (target.state !== 'Active') continue;
    if (!t.sync) {
      if (replicas.some((r) => r.node === t.from)) keep--;
      replicas = replicas.filter((r) => r.node !== t.from);
    }
    done.push(t);
  }
  if (done.length === 0) return null;
  return { assignment: replicas === a.replicas ? null : withReplicas(a, replicas, keep), addTransfers: [], removeTransfers: done };
}

/** A drain's move of the replica on `leaving` to `to` (make-before-break, as move_shard; the source need not be Active: the target catches up from the log). */
export function drainMove(a: Assignment, shard: number, leaving: number, to: number): ShardPlan {
  const t: Transfer = { shard, from: leaving, to, sync: false, method: null };
  return { assignment: withReplicas(a, [...a.replicas, { node: to, state: 'Initializing' }], targetOf(a) + 1), addTransfers: [t], removeTransfers: [] };
}

/** The node to drain a replica of a shard to: a live node without one, holding the fewest replicas overall. */
export function drainTarget(a: Assignment, liveNodes: number[], load: Map<number, number>, leaving: number): number | null {
  const candidates = liveNodes.filter((n) => n !== leaving && !a.replicas.some((r) => r.node === n));
  candidates.sort((x, y) => (load.get(x) ?? 0) - (load.get(y) ?? 0) || x - y);
  return candidates[0] ?? null;
}

export function parseAssignment(v: Buffer | string): Assignment | null {
  try {
    const a = JSON.parse(typeof v === 'string' ? v : v.toString('utf8')) as Assignment;
    return typeof a.epoch === 'number' && Array.isArray(a.replicas) ? a : null;
  } catch {
    return null;
  }
}

export function parseTransfer(v: Buffer | string): Transfer | null {
  try {
    const t = JSON.parse(typeof v === 'string' ? v : v.toString('utf8')) as Transfer;
    return typeof t.from === 'number' && typeof t.to === 'number' && typeof t.shard === 'number' ? t : null;
  } catch {
    return null;
  }
}
