// Snapshots bound replay (cluster mode, docs/cluster.md section 7): this node's side of shard snapshots.
// - snapshot(): the shard's worker writes a snapshot file at its applied_seq (snapshotShard,
//   src/workers/cluster/shard-snapshot.ts); it goes to the JetStream object store bucket
//   QV_SNAPSHOTS as `<collectionId>-<shard>-<seq>`, is recorded in etcd under
//   /quiver/snapshots/<collectionId>/<shard> as {seq, object, bytes, at}, the shard's stream is
//   purged below it, and older objects of the shard are deleted.
// - prepareReplica(): before a replica here starts following its shard, it restores the newest
//   snapshot when the log cannot bring it up to date (purged past its applied_seq) or when the
//   snapshot is at least a snapshot interval ahead of it (a new replica); otherwise it replays.
// - start(): every `cluster.snapshot_entries` entries or `cluster.snapshot_minutes`, the first
//   Active replica of each shard (in assignment order) snapshots it; a replica here found Dead as
//   purged is restored; now and then the records and objects of deleted collections are removed.
//   That schedule is SnapshotSchedule (snapshot-schedule.ts).
// - The etcd records (SnapshotRecord, SnapshotPointers, EtcdSnapshotPointers) are in
//   snapshot-pointers.ts; this file re-exports them, so importers need only this one.
//
// Invariants:
// - The etcd record only moves forward (a compare-and-swap on its revision; a record at or past a
//   snapshot's seq keeps its place), and an object is deleted only once a newer one is recorded.
// - The stream is purged only below min(snapshot seq, the applied_seq of every Active replica, and
//   of every other live replica that reported one): a replica that is serving never finds entries
//   it has not applied gone. The entries after the snapshot stay, so a restore can always replay.
// - A snapshot object is restored only when the object store's SHA-256 digest matched the bytes
//   read and the worker's own check of the file passed; a damaged one is refused, not loaded.
//
// etcd: a plain client of this thread (see snapshot-pointers.ts).

import { createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { NatsConnection } from '@nats-io/transport-node';
import { JetStreamApiError, jetstreamManager, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { streamName } from '../../shared/log-entry.js';
import { workerOf } from '../../shared/placement.js';
import { connectNats } from '../../shared/nats-connection.js';
import { retryFor, settleWithin } from '../../shared/deadline.js';
import type { ShardDispatcher } from '../router/dispatcher.js';
import type { ClusterLog } from './node.js';
import type { ClusterState } from '../../shared/cluster/state.js';
import type { SnapshotPointers, SnapshotRecord } from './snapshot-pointers.js';
import { SnapshotSchedule } from './snapshot-schedule.js';

export { EtcdSnapshotPointers, type SnapshotPointers, type SnapshotRecord } from './snapshot-pointers.js';

export const SNAPSHOT_BUCKET = 'QV_SNAPSHOTS';
/** Start-up could not open the bucket in time: the process ends naming NATS (server.ts). */
export class SnapshotBucketUnavailable extends Error {}

/** How long start-up retries opening the bucket (see ShardSnapshots.open). */
const OPEN_RETRY_MS = 30_000;

export type PrepareResult =
  /** Nothing to restore: the log brings the replica up to date from its applied_seq. */
  | 'current'
  /** A snapshot was restored: the apply loop continues from its seq + 1. */
  | 'restored'
  /** The log was purged past the replica and no usable snapshot covers the gap: it must not serve. */
  | 'dead';

export interface SnapshotsOptions {
  /** NATS servers (config `cluster.nats`). */
  servers: string[];
  /** Replicas of the object store's stream (config `cluster.stream_replicas`). */
  replicas: number;
  /** Snapshot files are written and read under <dataDir>/snapshots. */
  dataDir: string;
  /** This node's shard workers (each shard's primary is workerOf's). */
  workers: Pick<ShardDispatcher, 'call' | 'workerCount'>;
  pointers: SnapshotPointers;
  /** The collections this node holds (their cluster-wide ids) and their shard counts. */
  collections(): { id: number; shards: number }[];
  /** The assignments (null: one node whose every shard is followed here, write-log mode). */
  state: ClusterState | null;
  /** Config `cluster.snapshot_entries` and `cluster.snapshot_minutes` (0 turns either off). */
  every: { entries: number; minutes: number };
  log: ClusterLog;
}

/** cluster.snapshot_entries' default: how far behind a snapshot a replica restores rather than replays, when snapshots go by time only. */
const DEFAULT_ENTRIES = 100_000;

export class ShardSnapshots {
  readonly #o: SnapshotsOptions;
  readonly #nc: NatsConnection;
  readonly #jsm: JetStreamManager;
  readonly #store: ObjectStore;
  readonly #dir: string;
  /** One snapshot or restore at a time per shard: `collection/shard` -> the one running. */
  readonly #busy = new Map<string, Promise<unknown>>();
  /** When snapshots are taken (start()), and the newest record known here per shard. */
  readonly #schedule: SnapshotSchedule;
  #files = 0;

  private constructor(o: SnapshotsOptions, nc: NatsConnection, jsm: JetStreamManager, store: ObjectStore) {
    this.#o = o;
    this.#nc = nc;
    this.#jsm = jsm;
    this.#store = store;
    this.#dir = join(o.dataDir, 'snapshots');
    this.#schedule = new SnapshotSchedule(o, this);
    // Files of an earlier run (taken or downloaded, never finished) are of no use now.
    rmSync(this.#dir, { recursive: true, force: true });
    mkdirSync(this.#dir, { recursive: true });
  }

  /**
   * Connects to NATS and opens (creating it when missing) the object store bucket. Retried for
   * OPEN_RETRY_MS: while NATS elects its meta leader (several nodes starting at once, a server
   * restarting) the bucket's stream info times out, and a node must not die of that (a fault run's
   * node exited at start so).
   */
  static async open(o: SnapshotsOptions): Promise<ShardSnapshots> {
    const nc = await connectNats(o.servers, 5000);
    try {
      const jsm = await jetstreamManager(nc);
      const open = (): Promise<ObjectStore> => new Objm(nc).create(SNAPSHOT_BUCKET, { storage: StorageType.File, replicas: o.replicas, description: 'Quiver shard snapshots (docs/cluster.md section 7)' });
      const store = await retryFor(OPEN_RETRY_MS, 500, open).catch((err: unknown) => {
        throw new SnapshotBucketUnavailable(`cannot open the snapshot bucket ${SNAPSHOT_BUCKET} on NATS (SERVICE_CLUSTER_NATS) within ${OPEN_RETRY_MS / 1000} s: ${err instanceof Error ? err.message : String(err)}`);
      });
      return new ShardSnapshots(o, nc, jsm, store);
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }

  /** Runs `fn` once no other snapshot or restore of the shard runs here. */
  #serial<T>(collection: number, shard: number, fn: () => Promise<T>): Promise<T> {
    const key = `${collection}/${shard}`;
    const before = this.#busy.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#busy.set(key, settled);
    void settled.then(() => {
      if (this.#busy.get(key) === settled) this.#busy.delete(key);
    });
    return run;
  }

  #file(collection: number, shard: number, what: string): string {
    return join(this.#dir, `${what}-${collection}-${shard}-${++this.#files}.qvsnap`);
  }

  #worker(collection: number, shard: number): number {
    return workerOf(collection, shard, this.#o.workers.workerCount);
  }

  /**
   * Snapshots the shard's replica on this node, records it, purges the stream below it and deletes
   * the shard's older objects. Answers the record in place afterwards (an existing one at or past
   * the replica's position is left as it is).
   */
  snapshot(collection: number, shard: number): Promise<SnapshotRecord> {
    return this.#serial(collection, shard, () => this.#snapshot(collection, shard));
  }

  async #snapshot(collection: number, shard: number): Promise<SnapshotRecord> {
    const worker = this.#worker(collection, shard);
    const prev = await this.#o.pointers.get(collection, shard);
    const pos = await this.#o.workers.call(worker, { op: 'logPosition', collection, shard });
    if (prev !== null && prev.seq >= pos.applied) {
      this.#schedule.remember(collection, shard, prev);
      return prev;
    }
    const file = this.#file(collection, shard, 'out');
    try {
      const taken = await this.#o.workers.call(worker, { op: 'snapshotShard', collection, shard, file });
      if (prev !== null && prev.seq >= taken.seq) {
        this.#schedule.remember(collection, shard, prev);
        return prev;
      }
      const object = `${collection}-${shard}-${taken.seq}`;
      const info = await this.#store.put({ name: object, description: `shard ${collection}/${shard} at log sequence ${taken.seq}` }, webStream(file));
      const rec: SnapshotRecord = { seq: taken.seq, object, bytes: info.size, at: new Date().toISOString() };
      const kept = await this.#o.pointers.advance(collection, shard, rec);
      this.#schedule.remember(collection, shard, kept);
      if (kept.object !== object) {
        // Another node recorded one at or past this position meanwhile: this object serves no one.
        await this.#store.delete(object).catch(() => undefined);
        return kept;
      }
      this.#o.log.info({ collection, shard, seq: rec.seq, bytes: rec.bytes, points: taken.points, graphs: taken.graphs, apply_paused_ms: taken.pausedMs }, 'cluster: shard snapshot stored');
      // This replica stood at the snapshot's seq when it was taken (its position before is older).
      await this.#purge(collection, shard, rec.seq, taken.seq);
      await this.#deleteOlder(collection, shard, rec.seq);
      return rec;
    } finally {
      rmSync(file, { force: true });
    }
  }

  /**
   * The sequence below which the stream may go: the snapshot's, lowered to the applied_seq of
   * every Active replica (and of any other live one that reported a position: a Partial one
   * catching up replays rather than restores). `local`: this node's replica's own position.
   */
  purgeFloor(collection: number, shard: number, seq: number, local: number): number {
    const state = this.#o.state;
    let floor = Math.min(seq, local);
    if (state === null) return floor;
    for (const r of state.replicas(collection, shard)) {
      if (r.state === 'Dead') continue;
      if (r.state !== 'Active' && r.appliedSeq === 0) continue;
      floor = Math.min(floor, r.node === state.nodeId ? Math.max(local, r.appliedSeq) : r.appliedSeq);
    }
    return floor;
  }

  async #purge(collection: number, shard: number, seq: number, local: number): Promise<void> {
    const floor = this.purgeFloor(collection, shard, seq, local);
    const stream = streamName(collection, shard);
    const first = (await this.#jsm.streams.info(stream)).state.first_seq;
    if (floor + 1 <= first) return;
    // Purge keeps `seq` and what follows: the stream then starts right after the floor.
    const r = await this.#jsm.streams.purge(stream, { seq: floor + 1 });
    this.#o.log.info({ collection, shard, purged: r.purged, first_seq: floor + 1, snapshot_seq: seq }, 'cluster: shard log purged below its snapshot');
  }

  async #deleteOlder(collection: number, shard: number, seq: number): Promise<void> {
    const prefix = `${collection}-${shard}-`;
    for (const o of await this.#store.list()) {
      if (!o.name.startsWith(prefix)) continue;
      const at = Number(o.name.slice(prefix.length));
      if (Number.isInteger(at) && at < seq) await this.#store.delete(o.name).catch(() => undefined);
    }
  }

  /**
   * Called before a replica on this node starts (or resumes) following its shard: restores the
   * newest snapshot when the log was purged past the replica's applied_seq, or when the snapshot
   * is ahead of it by at least `cluster.snapshot_entries` (or it has applied nothing). With the log
   * purged past it and no usable snapshot it answers 'dead' (logged): the replica must not serve.
   * A snapshot object found damaged is refused; the replica then replays the log when it can.
   */
  prepareReplica(collection: number, shard: number): Promise<PrepareResult> {
    return this.#serial(collection, shard, () => this.#prepare(collection, shard));
  }

  async #prepare(collection: number, shard: number): Promise<PrepareResult> {
    const worker = this.#worker(collection, shard);
    const pos = await this.#o.workers.call(worker, { op: 'logPosition', collection, shard });
    let state: { first_seq: number; last_seq: number };
    try {
      state = (await this.#jsm.streams.info(streamName(collection, shard))).state;
    } catch (err) {
      // No stream yet (a collection being created): nothing to restore from or to skip.
      if (err instanceof JetStreamApiError && err.status === 404) return 'current';
      throw err;
    }
    const gap = state.first_seq > pos.applied + 1 && state.last_seq > pos.applied;
    const rec = await this.#o.pointers.get(collection, shard);
    this.#schedule.remember(collection, shard, rec);
    // A snapshot interval behind (the default's when snapshots go by time only) is worth a restore.
    const entries = this.#o.every.entries > 0 ? this.#o.every.entries : DEFAULT_ENTRIES;
    const ahead = rec !== null && rec.seq > pos.applied && (pos.applied === 0 || rec.seq - pos.applied >= entries);
    if (!gap && !ahead) return 'current';
    const fields = { collection, shard, applied_seq: pos.applied, first_seq: state.first_seq, snapshot_seq: rec?.seq ?? null };
    if (rec === null || rec.seq + 1 < state.first_seq || rec.seq <= pos.applied) {
      this.#o.log.error(fields, `cluster: replica of shard ${collection}/${shard} is Dead: its log was purged past applied_seq ${pos.applied} and no snapshot covers the gap`);
      return 'dead';
    }
    try {
      await this.#restore(collection, shard, rec);
    } catch (err) {
      if (!gap) {
        this.#o.log.warn({ ...fields, err: String(err) }, 'cluster: snapshot not restored; the replica replays its log instead');
        return 'current';
      }
      this.#o.log.error({ ...fields, err: String(err) }, `cluster: replica of shard ${collection}/${shard} is Dead: its log was purged past applied_seq ${pos.applied} and its snapshot could not be restored`);
      return 'dead';
    }
    this.#o.log.info(fields, 'cluster: shard snapshot restored; the replica replays the log after it');
    return 'restored';
  }

  /** Downloads the object (its digest checked by the object store as it is read), then has the worker restore it. */
  async #restore(collection: number, shard: number, rec: SnapshotRecord): Promise<void> {
    const file = this.#file(collection, shard, 'in');
    try {
      const got = await this.#store.get(rec.object);
      if (got === null) throw new Error(`snapshot object ${rec.object} is gone (a newer snapshot replaced it): retry`);
      try {
        await pipeline(Readable.fromWeb(got.data as unknown as NodeReadableStream<Uint8Array>), createWriteStream(file));
      } catch (err) {
        throw new Error(`snapshot object ${rec.object} refused: ${err instanceof Error ? err.message : String(err)}`);
      }
      const failed = await got.error;
      if (failed !== null && failed !== undefined) throw new Error(`snapshot object ${rec.object} refused: ${failed.message}`);
      if (got.info.size !== rec.bytes) throw new Error(`snapshot object ${rec.object} has ${got.info.size} bytes, its record says ${rec.bytes}`);
      await this.#o.workers.call(this.#worker(collection, shard), { op: 'restoreShard', collection, shard, file });
    } finally {
      rmSync(file, { force: true });
    }
  }

  /**
   * Removes the records and objects of deleted collections (see SnapshotPointers.deleted); the
   * schedule (snapshot-schedule.ts) runs it every GC_MS, on every node (it is idempotent). Answers
   * the ids removed.
   */
  async collectGarbage(): Promise<number[]> {
    const deleted = await this.#o.pointers.deleted();
    const removed = new Set<number>();
    for (const id of await this.#o.pointers.recorded()) {
      if (!deleted(id)) continue;
      await this.#o.pointers.drop(id);
      removed.add(id);
    }
    for (const o of await this.#store.list()) {
      const id = Number(o.name.slice(0, o.name.indexOf('-')));
      if (!Number.isInteger(id) || !deleted(id)) continue;
      await this.#store.delete(o.name).catch(() => undefined);
      removed.add(id);
    }
    this.#schedule.forget(removed);
    if (removed.size > 0) this.#o.log.info({ collections: [...removed] }, 'cluster: snapshots of deleted collections removed');
    return [...removed].sort((a, b) => a - b);
  }

  /** Starts the schedule (see the file comment). */
  start(tickMs?: number): void {
    this.#schedule.start(tickMs);
  }

  async close(): Promise<void> {
    this.#schedule.stop();
    await Promise.allSettled([...this.#busy.values()]);
    this.#o.pointers.close();
    await settleWithin(this.#nc.close(), 2000);
    try {
      for (const f of readdirSync(this.#dir)) rmSync(join(this.#dir, f), { recursive: true, force: true });
    } catch {
      // Nothing left to remove.
    }
  }
}

/** A file as the web ReadableStream the object store reads. */
function webStream(file: string): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
}
