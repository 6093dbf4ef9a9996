// This node's replicas, on the main thread (decision 3 and item 6 of issue 16's control-plane
// part): from the assignments mirrored in ClusterState, the shards this node holds a replica of
// are FOLLOWED (their worker's apply loop runs), the others not; and every ~500 ms the node's
// status report (status/<node>: applied_seq, caught_up, dead per followed shard, and the catalog
// revision the node has applied) is written when it changed. A shard newly assigned here first
// goes through the optional prepareReplica hook (snapshots restore a replica there); without it
// the apply loop starts from applied_seq + 1.
//
// Invariants: the followed set sent to the workers is always the whole set (a replaced worker
// thread, which follows nothing, gets it again on the next run); a replica is reported caught_up
// when it is Active in the assignment, or when its applied_seq is within CAUGHT_UP_LAG entries of
// its stream's last sequence as read in this run.

import { shardKey, type NodeStatus, type ShardReport } from '../../shared/cluster/assignments.js';
import { BOOT_ID, type ClusterStateMirror } from './state-mirror.js';
import type { CollectionMeta } from '../../shared/types.js';
import { Rerun } from '../../shared/cluster/rerun.js';

/** What a replica may lag its stream's end by and still count as caught up. */
export const CAUGHT_UP_LAG = 100;
const RUN_MS = 500;
/** How long a create waits for its shards to be assigned and followed here before it answers anyway. */
const PLACED_TIMEOUT_MS = 15_000;

export interface ReplicaHooks {
  /** Before a replica new to this node starts following (C5 restores a snapshot here). */
  prepareReplica?(collectionId: number, shard: number): Promise<void>;
}

/** What the follow loop needs of the Engine and the write log (engine.ts and logged-writes.ts implement it). */
export interface FollowTarget {
  holdsCollection(id: number): boolean;
  followShards(shards: readonly [number, number][]): Promise<Record<string, { applied: number; dead: string | null }>>;
}

export interface FollowLog {
  lastSeq(collection: number, shard: number): Promise<number>;
}

export interface FollowLogger {
  warn(fields: Record<string, unknown>, msg: string): void;
}

export class ReplicaFollow {
  readonly #state: ClusterStateMirror;
  readonly #engine: FollowTarget;
  readonly #log: FollowLog;
  readonly #report: (s: NodeStatus) => void;
  /** Where snapshots plug in (C5): read at each new replica, so it may be set after start(). */
  hooks: ReplicaHooks;
  readonly #logger: FollowLogger;
  /** Shards whose prepareReplica finished (or that need none), and those in progress. */
  readonly #prepared = new Set<string>();
  readonly #preparing = new Set<string>();
  /** The workers' last answer: what they follow and where each shard is. */
  #positions: Record<string, { applied: number; dead: string | null }> = {};
  #lastReport = '';
  /** This process's boot id in every report: the controller tells a restart within the lease by it. */
  readonly #boot = BOOT_ID;
  readonly #rerun = new Rerun(
    () => this.#run(),
    (err) => this.#logger.warn({ err }, 'cluster: following the assigned shards failed; retrying'),
    () => this.#timer !== null,
  );
  #timer: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void) | null = null;
  readonly #waiters = new Set<() => void>();

  /** The catalog revision this node has applied (catalog-sync.ts), carried in every report. */
  readonly #catalogRev: () => number;

  constructor(state: ClusterStateMirror, engine: FollowTarget, log: FollowLog, report: (s: NodeStatus) => void, logger: FollowLogger, hooks: ReplicaHooks = {}, catalogRev: () => number = () => 0) {
    this.#catalogRev = catalogRev;
    this.#state = state;
    this.#engine = engine;
    this.#log = log;
    this.#report = report;
    this.#logger = logger;
    this.hooks = hooks;
  }

  start(): void {
    // Assignment changes only: reports arrive from every node twice a second and change nothing here.
    let seen = -1;
    this.#unsubscribe = this.#state.onChange(() => {
      if (this.#state.assignVersion === seen) return;
      seen = this.#state.assignVersion;
      this.kick();
    });
    this.#timer = setInterval(() => this.kick(), RUN_MS);
    this.#timer.unref();
    this.kick();
  }

  stop(): void {
    this.#unsubscribe?.();
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  kick(): void {
    this.#rerun.kick();
  }

  /** This node's replicas in the assignments of the collections it holds: key -> [collection, shard]. */
  #mine(): Map<string, [number, number]> {
    const out = new Map<string, [number, number]>();
    if (!this.#state.loaded) return out;
    for (const [key, a] of this.#state.assignments()) {
      if (!a.replicas.some((r) => r.node === this.#state.nodeId)) continue;
      const [c, s] = key.split('/').map(Number) as [number, number];
      if (this.#engine.holdsCollection(c)) out.set(key, [c, s]);
    }
    return out;
  }

  async #run(): Promise<void> {
    const mine = this.#mine();
    for (const key of [...this.#prepared]) if (!mine.has(key)) this.#prepared.delete(key);
    const follow: [number, number][] = [];
    for (const [key, cs] of mine) {
      if (this.#prepared.has(key)) {
        follow.push(cs);
        continue;
      }
      const hooks = this.hooks;
      if (hooks.prepareReplica === undefined) {
        this.#prepared.add(key);
        follow.push(cs);
      } else if (!this.#preparing.has(key)) {
        this.#preparing.add(key);
        void hooks.prepareReplica(cs[0], cs[1]).then(
          () => {
            this.#preparing.delete(key);
            this.#prepared.add(key);
            this.kick();
          },
          (err: unknown) => {
            // Tried again on a later run; meanwhile the replica does not follow.
            this.#preparing.delete(key);
            this.#logger.warn({ err, collection: cs[0], shard: cs[1] }, 'cluster: preparing a replica failed; retrying');
          },
        );
      }
    }
    this.#positions = await this.#engine.followShards(follow);
    for (const w of [...this.#waiters]) w();
    const shards: Record<string, ShardReport> = {};
    for (const [key, p] of Object.entries(this.#positions)) {
      const [c, s] = key.split('/').map(Number) as [number, number];
      const me = this.#state.replicas(c, s).find((r) => r.node === this.#state.nodeId);
      let caughtUp = me?.state === 'Active';
      if (!caughtUp && p.dead === null) {
        const last = await this.#log.lastSeq(c, s).catch(() => null);
        caughtUp = last !== null && p.applied + CAUGHT_UP_LAG >= last;
      }
      shards[key] = { applied_seq: p.applied, caught_up: caughtUp && p.dead === null, dead: p.dead !== null };
    }
    const catalogRev = this.#catalogRev();
    const body = JSON.stringify([shards, catalogRev]);
    if (body !== this.#lastReport) {
      this.#lastReport = body;
      this.#report({ at: new Date().toISOString(), boot: this.#boot, shards, catalog_rev: catalogRev });
    }
  }

  /** Whether every shard of the collection is assigned, and followed here where this node holds it. */
  #isPlaced(meta: CollectionMeta): boolean {
    for (let s = 0; s < meta.config.shard_number; s++) {
      const reps = this.#state.replicas(meta.id, s);
      if (reps.length === 0) return false;
      if (reps.some((r) => r.node === this.#state.nodeId) && this.#positions[shardKey(meta.id, s)] === undefined) return false;
    }
    return true;
  }

  /** Resolves once the collection is placed (see #isPlaced), or after PLACED_TIMEOUT_MS (logged). */
  placed(meta: CollectionMeta): Promise<void> {
    if (this.#isPlaced(meta)) return Promise.resolve();
    this.kick();
    return new Promise<void>((res) => {
      const done = (): void => {
        this.#waiters.delete(check);
        clearTimeout(timer);
        res();
      };
      const check = (): void => {
        if (this.#isPlaced(meta)) done();
      };
      const timer = setTimeout(() => {
        this.#logger.warn({ collection: meta.name, id: meta.id }, 'cluster: collection created but not yet placed on the nodes; answering anyway');
        done();
      }, PLACED_TIMEOUT_MS);
      this.#waiters.add(check);
    });
  }
}
