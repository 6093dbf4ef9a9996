// Shard assignments (docs/cluster.md section 7; decisions 4 and 5 of the session's docs/cluster.md section 7):
// /quiver/assign/<collectionId>/<shard> = {epoch, replicas: [{node, state, since?}]}, and the
// controller's pure decision of what each assignment should become (reconcile), given the live
// nodes, the catalog and the nodes' status reports. Writing is control-loop.ts's (fenced + CAS).
//
// Invariants of what reconcile produces:
// - the replicas of a shard are on distinct nodes; a new one goes to the node holding fewest of
//   its collection's replicas, rendezvous hashing of (collection id, shard, node) deciding between
//   equals: the same inputs give the same placement on any controller;
// - a Dead replica is removed only once its replacement is Active (make-before-break), and a
//   replacement is added only once a Dead one is past its grace;
// - a transfer (move_shard, replicate_shard, a drain) whose target replica is Dead ends as Qdrant
//   ends a failed transfer: the target's replica goes at once, the shard keeps its source and its
//   replica count from before the operation, so no replacement is placed for the target and the
//   shard never holds more replicas than that (the ops server's settle then deletes the transfer);
// - every change raises the epoch by one; an assignment that needs no change is not rewritten.

import { createHash } from 'node:crypto';
import type { ReplicaState } from './state.js';
import type { CatalogEntry } from './catalog.js';

export interface AssignedReplica {
  node: number;
  state: ReplicaState;
  /** When the replica became Dead (ms since the epoch): its grace counts from there, on any controller. */
  since?: number;
  /**
   * The boot id of the node process it was last Active under: a node restarted faster than its
   * lease lapsed reports another one, and its replica is Partial again until it has caught up.
   */
  boot?: string;
}

export interface Assignment {
  epoch: number;
  replicas: AssignedReplica[];
  /**
   * Replicas wanted for this shard when a cluster operation (replicate_shard, drop_replica,
   * move_shard: C3) set it; absent, the collection's replication_factor. Kept on every rewrite.
   */
  target?: number;
}

/** One shard's position on one node, as the node reports it under status/<node>. */
export interface ShardReport {
  applied_seq: number;
  caught_up: boolean;
  dead: boolean;
}

/** status/<node> (lease-bound): the node's followed shards by "<collectionId>/<shard>". */
export interface NodeStatus {
  at: string;
  /** This process's boot id (random at each start). */
  boot?: string;
  shards: Record<string, ShardReport>;
  /** The etcd revision of the catalog this node has applied to its own (a create waits for it on every node). */
  catalog_rev?: number;
}

export const assignKey = (collection: number, shard: number): string => `assign/${collection}/${shard}`;
export const statusKey = (node: number): string => `status/${node}`;
export const shardKey = (collection: number, shard: number): string => `${collection}/${shard}`;

/** "<id>/<shard>" of an assign/ key, with or without the namespace prefix. */
export function parseAssignKey(key: string): { collection: number; shard: number } | null {
  const m = /assign\/(\d+)\/(\d+)$/.exec(key);
  return m === null ? null : { collection: Number(m[1]), shard: Number(m[2]) };
}

/** The nodes in rendezvous order for a shard: highest hash of (collection, shard, node) first. */
export function rendezvous(collection: number, shard: number, nodes: Iterable<number>): number[] {
  const score = (n: number): bigint => createHash('sha256').update(`${collection}/${shard}/${n}`).digest().readBigUInt64BE(0);
  return [...nodes]
    .map((n) => ({ n, s: score(n) }))
    .sort((a, b) => (a.s === b.s ? a.n - b.n : a.s > b.s ? -1 : 1))
    .map((x) => x.n);
}

export interface ControlView {
  now: number;
  /** Nodes holding their lease. */
  live: ReadonlySet<number>;
  catalog: ReadonlyMap<string, CatalogEntry>;
  /** Assignments by shardKey. */
  assignments: ReadonlyMap<string, Assignment>;
  statuses: ReadonlyMap<number, NodeStatus>;
  graceMs: number;
  /** Nodes being drained (DELETE /cluster/peer: removing/<id>): live, but given no new replica. */
  leaving?: ReadonlySet<number>;
  /** The transfers in flight (/quiver/transfers/), by shardKey: their target nodes (absent: none). */
  transfers?: ReadonlyMap<string, readonly { from: number; to: number }[]>;
}

/** What to write: a new or changed assignment (next), or its removal (null). */
export interface AssignChange {
  collection: number;
  shard: number;
  next: Assignment | null;
}

function replicationFactor(entry: CatalogEntry): number {
  const rf = (entry.config as { replication_factor?: unknown } | null)?.replication_factor;
  return typeof rf === 'number' && rf >= 1 ? Math.floor(rf) : 1;
}

function shardNumber(entry: CatalogEntry): number {
  const n = (entry.config as { shard_number?: unknown } | null)?.shard_number;
  return typeof n === 'number' && n >= 1 ? Math.floor(n) : 1;
}

/** The live nodes a new replica may go to: not those being drained. */
function placeable(view: ControlView): number[] {
  return [...view.live].filter((n) => view.leaving?.has(n) !== true);
}

/**
 * Where a new replica of a shard goes, best first: the nodes holding fewest of the collection's
 * other replicas (so shard_number 3 on three nodes is one shard per node, as Qdrant spreads them),
 * rendezvous order between equals (the sort is stable).
 */
function placementOrder(collection: number, shard: number, view: ControlView, load: ReadonlyMap<number, number>): number[] {
  return rendezvous(collection, shard, placeable(view)).sort((a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0));
}

/**
 * The replicas of a shard after one reconcile step (a copy: `current` is not changed). `load`: how
 * many replicas (not Dead) of the collection's other shards each node holds.
 */
export function reconcileShard(collection: number, shard: number, collectionRf: number, current: Assignment | undefined, view: ControlView, load: ReadonlyMap<number, number> = new Map()): Assignment | null {
  if (current === undefined) {
    // A new collection: every stream is empty, so its replicas are Active at once.
    const nodes = placementOrder(collection, shard, view, load).slice(0, Math.min(collectionRf, view.live.size));
    return nodes.length === 0 ? null : { epoch: 1, replicas: nodes.map((node) => ({ node, state: 'Active' })) };
  }
  const key = shardKey(collection, shard);
  const reps: AssignedReplica[] = current.replicas.map((r) => ({ ...r }));
  for (const r of reps) {
    const status = view.statuses.get(r.node);
    const report = status?.shards[key];
    const dead = (state: AssignedReplica): void => {
      if (state.state !== 'Dead') {
        state.state = 'Dead';
        state.since = view.now;
      }
    };
    if (!view.live.has(r.node) || report?.dead === true) dead(r);
    else if (r.state === 'Dead') {
      // Its node is back (and the shard not dead there): it catches up from its own position.
      r.state = 'Partial';
      delete r.since;
    } else if (r.state === 'Active' && status?.boot !== undefined && r.boot !== undefined && r.boot !== status.boot) {
      // Restarted within its lease: it may be behind the log until it has caught up.
      r.state = 'Partial';
      delete r.boot;
    } else if (r.state !== 'Active' && report?.caught_up === true) {
      r.state = 'Active';
      if (status?.boot !== undefined) r.boot = status.boot;
    } else if (r.state === 'Active' && r.boot === undefined && report !== undefined && status?.boot !== undefined) r.boot = status.boot;
  }
  // A transfer whose target died before it served: the target's replica goes, and with it the
  // one replica the operation added to the shard's own target (see the invariants).
  let aborted = 0;
  for (const t of view.transfers?.get(key) ?? []) {
    const i = reps.findIndex((r) => r.node === t.to);
    if (i >= 0 && reps[i]!.state === 'Dead') {
      reps.splice(i, 1);
      aborted++;
    }
  }
  const ownTarget = current.target === undefined ? undefined : Math.max(1, current.target - aborted);
  const rf = ownTarget ?? collectionRf;
  const target = Math.min(rf, view.live.size);
  if (target === 0) return null;
  const active = (): number => reps.filter((r) => r.state === 'Active').length;
  const nonDead = (): number => reps.filter((r) => r.state !== 'Dead').length;
  // Replacements: only for Dead replicas past their grace, or for missing replicas.
  const pastGrace = reps.filter((r) => r.state === 'Dead' && view.now - (r.since ?? view.now) >= view.graceMs).length;
  let allowed = Math.max(0, target - reps.length) + pastGrace;
  if (nonDead() < target && allowed > 0) {
    const used = new Set(reps.map((r) => r.node));
    for (const node of placementOrder(collection, shard, view, load)) {
      if (nonDead() >= target || allowed === 0) break;
      if (used.has(node)) continue;
      reps.push({ node, state: 'Initializing' });
      allowed--;
    }
  }
  // Make-before-break: a Dead replica past its grace goes once the shard has as many Active
  // replicas as it can have counting the Dead one's node (so only once a replacement is Active:
  // with no node to replace it on, it stays, and turns Partial when its node returns).
  let out = reps;
  const reachable = new Set([...view.live, ...reps.map((r) => r.node)]).size;
  if (active() >= Math.min(rf, reachable)) out = out.filter((r) => !(r.state === 'Dead' && view.now - (r.since ?? view.now) >= view.graceMs));
  // More live replicas than the target (a node came back after its replacement was placed):
  // the ones not yet Active go first, then the last placed.
  while (out.filter((r) => r.state !== 'Dead').length > target && out.filter((r) => r.state === 'Active').length >= target) {
    const notActive = out.map((r, i) => [r, i] as const).filter(([r]) => r.state !== 'Active' && r.state !== 'Dead');
    const drop = notActive.length > 0 ? notActive[notActive.length - 1]![1] : out.map((r, i) => [r, i] as const).filter(([r]) => r.state === 'Active').pop()![1];
    out = out.filter((_, i) => i !== drop);
  }
  if (JSON.stringify(out) === JSON.stringify(current.replicas)) return current;
  return { ...current, epoch: current.epoch + 1, replicas: out, ...(ownTarget === undefined ? {} : { target: ownTarget }) };
}

/** Every assignment change the controller should make now. */
export function reconcile(view: ControlView): AssignChange[] {
  const changes: AssignChange[] = [];
  const wanted = new Set<string>();
  for (const entry of view.catalog.values()) {
    if (entry.deleting) continue;
    const rf = replicationFactor(entry);
    const shards = shardNumber(entry);
    // The collection's replicas per node, kept up to date as each shard is decided, so shards
    // placed in one run spread as well as those placed before.
    const load = new Map<number, number>();
    const count = (a: Assignment | null | undefined, by: number): void => {
      for (const r of a?.replicas ?? []) if (r.state !== 'Dead') load.set(r.node, (load.get(r.node) ?? 0) + by);
    };
    for (let s = 0; s < shards; s++) count(view.assignments.get(shardKey(entry.id, s)), 1);
    for (let s = 0; s < shards; s++) {
      const key = shardKey(entry.id, s);
      wanted.add(key);
      const cur = view.assignments.get(key);
      count(cur, -1);
      const next = reconcileShard(entry.id, s, rf, cur, view, load);
      count(next, 1);
      if (next !== null && next !== cur) changes.push({ collection: entry.id, shard: s, next });
    }
  }
  // Assignments of collections gone (or being deleted) are removed.
  for (const key of view.assignments.keys()) {
    if (wanted.has(key)) continue;
    const [c, s] = key.split('/').map(Number) as [number, number];
    changes.push({ collection: c, shard: s, next: null });
  }
  return changes;
}
