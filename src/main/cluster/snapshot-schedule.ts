// When shard snapshots are taken (cluster mode, docs/cluster.md section 7): the schedule that
// ShardSnapshots.start() (snapshots.ts) runs. Every `cluster.snapshot_entries` entries or
// `cluster.snapshot_minutes`, the first Active replica of each shard (in assignment order)
// snapshots it; a replica here found Dead as purged is restored; now and then the records and
// objects of deleted collections are removed. It also keeps, per shard, the newest record known
// here (the store tells it each one it reads or writes).
//
// Invariants:
// - One round at a time, and none once stopped; a round's failure is logged and never rejects
//   (the next round retries).
// - Only the replica that takes a shard's snapshots snapshots it; a node without a replica of a
//   shard leaves it alone.
// - This file never imports snapshots.ts: the store is reached through ScheduleTarget.

import { workerOf } from '../../shared/placement.js';
import type { ShardDispatcher } from '../router/dispatcher.js';
import type { ClusterLog } from './node.js';
import type { ClusterState } from '../../shared/cluster/state.js';
import type { SnapshotPointers, SnapshotRecord } from './snapshot-pointers.js';

/** How often start()'s timer looks at the shards. */
const TICK_MS = 2000;
/** Between two restores tried by the schedule for one shard found Dead as purged. */
const RESTORE_RETRY_MS = 10_000;
/** Between two removals of deleted collections' snapshots. */
const GC_MS = 60_000;

/** What the schedule reads of the store's options (SnapshotsOptions, snapshots.ts, documents each). */
export interface ScheduleOptions {
  workers: Pick<ShardDispatcher, 'call' | 'workerCount'>;
  pointers: Pick<SnapshotPointers, 'get'>;
  collections(): { id: number; shards: number }[];
  state: ClusterState | null;
  every: { entries: number; minutes: number };
  log: ClusterLog;
}

/** What the schedule does through the store (ShardSnapshots, which owns the schedule). */
export interface ScheduleTarget {
  snapshot(collection: number, shard: number): Promise<SnapshotRecord>;
  prepareReplica(collection: number, shard: number): Promise<unknown>;
  collectGarbage(): Promise<number[]>;
}

export class SnapshotSchedule {
  readonly #o: ScheduleOptions;
  readonly #target: ScheduleTarget;
  /** Per shard: the newest record known here, and since when this node looks at the shard. */
  readonly #known = new Map<string, { rec: SnapshotRecord | null; readAt: number; since: number }>();
  /** When a restore of a shard found Dead as purged was last tried. */
  readonly #restoreTried = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  /** When collectGarbage last ran (the first tick runs it). */
  #collected = 0;
  #ticking = false;
  #closed = false;

  constructor(o: ScheduleOptions, target: ScheduleTarget) {
    this.#o = o;
    this.#target = target;
  }

  /** Notes the newest record of a shard known here (read from etcd or just recorded). */
  remember(collection: number, shard: number, rec: SnapshotRecord | null): void {
    const key = `${collection}/${shard}`;
    const k = this.#known.get(key);
    this.#known.set(key, { rec, readAt: Date.now(), since: k?.since ?? Date.now() });
  }

  /** Forgets the shards of collections whose snapshots were removed (deleted collections). */
  forget(removed: Set<number>): void {
    for (const key of [...this.#known.keys()]) if (removed.has(Number(key.split('/')[0]))) this.#known.delete(key);
  }

  /** Starts the schedule (see the file comment). */
  start(tickMs = TICK_MS): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => void this.#tick(), tickMs);
    this.#timer.unref();
  }

  /** Stops the schedule: no round starts after this, and a running one ends at its next shard. */
  stop(): void {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #worker(collection: number, shard: number): number {
    return workerOf(collection, shard, this.#o.workers.workerCount);
  }

  /** Whether this node's replica takes the shard's snapshots: the first Active one in assignment order. */
  #takesSnapshots(collection: number, shard: number): boolean {
    const state = this.#o.state;
    if (state === null) return true;
    return state.replicas(collection, shard).find((r) => r.state === 'Active')?.node === state.nodeId;
  }

  #hasReplica(collection: number, shard: number): boolean {
    const state = this.#o.state;
    return state === null || state.replicas(collection, shard).some((r) => r.node === state.nodeId);
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#closed) return;
    this.#ticking = true;
    try {
      if (Date.now() - this.#collected >= GC_MS) {
        this.#collected = Date.now();
        await this.#target.collectGarbage().catch((err: unknown) => this.#o.log.warn({ err: String(err) }, 'cluster: removing snapshots of deleted collections failed; next round retries'));
      }
      const { entries, minutes } = this.#o.every;
      for (const { id, shards } of this.#o.collections()) {
        for (let shard = 0; shard < shards && !this.#closed; shard++) {
          try {
            if (!this.#hasReplica(id, shard)) continue;
            const pos = await this.#o.workers.call(this.#worker(id, shard), { op: 'logPosition', collection: id, shard });
            if (pos.purged) {
              // Dead as purged: restored from the newest snapshot, tried again now and then (a
              // newer snapshot may replace one that could not be restored).
              const key = `${id}/${shard}`;
              if (Date.now() - (this.#restoreTried.get(key) ?? 0) >= RESTORE_RETRY_MS) {
                this.#restoreTried.set(key, Date.now());
                await this.#target.prepareReplica(id, shard);
              }
              continue;
            }
            if (pos.dead !== null || !this.#takesSnapshots(id, shard)) continue;
            const key = `${id}/${shard}`;
            let k = this.#known.get(key);
            // Another node may have taken one since (the replica order changed): re-read now and then.
            if (k === undefined || Date.now() - k.readAt > 60_000) {
              this.remember(id, shard, await this.#o.pointers.get(id, shard));
              k = this.#known.get(key)!;
            }
            const last = k.rec?.seq ?? 0;
            const lastAt = k.rec === null ? k.since : Math.max(k.since, Date.parse(k.rec.at));
            const byCount = entries > 0 && pos.applied - last >= entries;
            const byTime = minutes > 0 && pos.applied > last && Date.now() - lastAt >= minutes * 60_000;
            if (byCount || byTime) await this.#target.snapshot(id, shard);
          } catch (err) {
            if (!this.#closed) this.#o.log.warn({ collection: id, shard, err: String(err) }, 'cluster: shard snapshot round failed; next round retries');
          }
        }
      }
    } catch (err) {
      // The engine stops answering while the node shuts down or has lost its lease: a timer's
      // rejection would end the process (exit 1 on a clean SIGTERM was seen), so the round ends here.
      if (!this.#closed) this.#o.log.warn({ err: String(err) }, 'cluster: snapshot round skipped; next round retries');
    } finally {
      this.#ticking = false;
    }
  }
}
