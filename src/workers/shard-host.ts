// The shards one worker owns, and the dispatch of protocol requests to them: one handler per
// op, typed by the op (the worker knows no transport: entry.ts wraps it for piscina).
//
// A worker holds primaries and read copies (secondaries) of shards, as placement.ts places them.
// A copy added to a live collection is opened held: requests to it wait, in arrival order, until
// its loadShards has read LMDB; then they run in that order, so it ends in the primary's state.
// A copy opened held again before it loaded (rebuilt) keeps the requests held so far: they ran
// nowhere yet, and the new load reads LMDB no earlier than the first one would have.
// A read copy dropped here (replication_factor lowered) answers the reads still on their way to it
// with a retryable ShardUnavailable, so their coordinator asks another copy: the catalog took it
// out of reads before the drop, but a read sent just before may arrive after.

import type { QuiverDb } from '../shared/db.js';
import { QuiverError } from '../shared/errors.js';
import { copyIndexOn, effectiveReplicas } from '../shared/placement.js';
import { LOAD_PROGRESS, LOAD_PROGRESS_SLOTS, PROTOCOL_VERSION, type Op, type RequestOf, type ResultOf, type ShardLoadReport } from '../shared/protocol.js';
import { threadMemory } from '../shared/shard-results.js';
import type { CollectionMeta } from '../shared/types.js';
import { GraphSnapshots } from './shard/graph-snapshots.js';
import { hnswBuild } from './index/hnswlib-loader.js';
import { Shard, type GraphSavePolicy, type ShardLoad } from './shard/shard.js';
import { failpoint } from './failpoints.js';
import { StartupClock } from '../shared/startup-clock.js';
import type { FollowHandle } from './cluster/apply-loop.js';
import { appliedSeqKey } from '../shared/log-entry.js';
import { checkSnapshot, installSnapshot, ShardCapture, SnapshotDamaged } from './cluster/shard-snapshot.js';
import { rmSync } from 'node:fs';
import { takeIssues } from './service/issues.js';
import { liveRecall } from './service/live-recall.js';

/** How often a wait=true for a shard not followed yet looks again (cluster mode, right after a create). */
const FOLLOW_POLL_MS = 25;

/** Cluster mode's apply loops (src/workers/cluster/apply-loop.ts, loaded only then). */
export interface LogFollowers {
  /** Starts applying the shard's log to the shard `current()` returns (undefined: dropped). */
  follow(db: QuiverDb, collection: number, shard: number, current: () => Shard | undefined): FollowHandle;
}

export interface ShardHostOptions {
  /** Background graph saves (none when absent: the in-process dispatcher's default). */
  savePolicy?: GraphSavePolicy;
  /** Where loadAll publishes its progress (WorkerInit.progress). */
  progress?: SharedArrayBuffer;
  /** The thread's start-up marks, reported in the ping. */
  clock?: StartupClock;
  /** WorkerInit.listening: the load_delay_ms failpoint waits for it before its first sleep. */
  listening?: SharedArrayBuffer;
  /** Cluster mode: one copy of each shard per node (replication_factor counts nodes there, see Engine). */
  singleCopy?: boolean;
}

export class ShardHost {
  readonly #worker: number;
  readonly #workerCount: number;
  readonly #db: QuiverDb;
  readonly #shards = new Map<string, Shard>();
  /** Requests held per shard opened held (see the file comment), in arrival order. */
  readonly #holds = new Map<string, { run: () => void; fail: (err: unknown) => void }[]>();
  /** Read copies dropped from this worker (`collection/shard`), until opened here again. */
  readonly #droppedCopies = new Set<string>();

  readonly #indexDir: string;
  readonly #savePolicy: GraphSavePolicy | undefined;
  readonly #progress: Int32Array | null;
  #restored = 0;
  #rebuilt = 0;
  readonly #loads: ShardLoadReport[] = [];
  readonly #clock: StartupClock;
  readonly #listening: Int32Array | null;
  readonly #singleCopy: boolean;
  #timer: NodeJS.Timeout | null = null;
  /** Cluster mode: each primary's position in its log, and its apply loop (see startFollowing). */
  #followers: LogFollowers | null = null;
  readonly #appliers = new Map<string, FollowHandle>();
  /** Shards whose content a snapshot is replacing (restoreShard): not followed meanwhile. */
  readonly #restoring = new Set<string>();

  constructor(worker: number, workerCount: number, db: QuiverDb, indexDir: string, options: ShardHostOptions = {}) {
    this.#indexDir = indexDir;
    this.#worker = worker;
    this.#workerCount = workerCount;
    this.#db = db;
    this.#savePolicy = options.savePolicy;
    this.#clock = options.clock ?? new StartupClock();
    this.#listening = options.listening === undefined ? null : new Int32Array(options.listening);
    this.#singleCopy = options.singleCopy === true;
    this.#progress = options.progress === undefined ? null : new Int32Array(options.progress, worker * LOAD_PROGRESS_SLOTS * 4, LOAD_PROGRESS_SLOTS);
    const seconds = options.savePolicy?.everySeconds ?? 0;
    if (seconds > 0) {
      // Saves by time: checked once a second at most, so a quiet shard's last writes get saved too.
      this.#timer = setInterval(() => {
        const now = Date.now();
        for (const s of this.#shards.values()) s.maybeSave(now);
      }, Math.min(1000, seconds * 1000));
      this.#timer.unref();
    }
  }

  /**
   * Opens and loads every shard of every live collection placed on this worker, publishing the
   * progress (shards and points loaded) for /readyz as it goes.
   */
  loadAll(): void {
    for (const [shard, onPoints, done] of this.#toLoad()) done(shard.load(onPoints));
  }

  /** loadAll, each shard's saved graphs read off-thread while its records are read (Shard.loadAsync). */
  async loadAllAsync(): Promise<void> {
    for (const [shard, onPoints, done] of this.#toLoad()) done(await shard.loadAsync(onPoints));
  }

  /** The shards to load at start, one at a time, each with its progress callback and what to do with its load. */
  *#toLoad(): Generator<[Shard, (n: number) => void, (load: ShardLoad) => void]> {
    const mine: [CollectionMeta, number, boolean][] = [];
    for (const { value: meta } of this.#db.catalog.getRange()) {
      if (meta.deleting === true) continue;
      const copies = this.#singleCopy ? 1 : effectiveReplicas(meta.config.replication_factor, this.#workerCount);
      for (let s = 0; s < meta.config.shard_number; s++) {
        const copy = copyIndexOn(meta.id, s, copies, this.#worker, this.#workerCount);
        if (copy >= 0) mine.push([meta, s, copy > 0]);
      }
    }
    const progress = this.#progress;
    if (progress !== null) {
      // A replacement thread (the previous one crashed) counts from zero again.
      Atomics.store(progress, LOAD_PROGRESS.shardsLoaded, 0);
      Atomics.store(progress, LOAD_PROGRESS.points, 0);
      Atomics.store(progress, LOAD_PROGRESS.shardsTotal, mine.length);
    }
    const delay = failpoint('load_delay_ms');
    // A slowed load starts its sleeps once REST listens, so that it is slow as seen from there
    // (at most a minute: a start-up that fails before listening must not hold this thread).
    if (delay !== null && this.#listening !== null) Atomics.wait(this.#listening, 0, 0, 60_000);
    let before = 0;
    for (const [meta, s, secondary] of mine) {
      // A slowed load, for the test that watches /readyz during one (Atomics.wait: a real sleep of this thread).
      if (delay !== null) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
      const onPoints = (n: number): void => {
        if (progress !== null) Atomics.store(progress, LOAD_PROGRESS.points, before + n);
      };
      yield [
        this.#open(meta, s, secondary),
        onPoints,
        (load) => {
          before += load.points;
          this.#loads.push({ collection: meta.id, shard: s, ...load });
          if (load.graphsRebuilt === 0 && load.graphsRead > 0) this.#restored++;
          else if (load.graphsRebuilt > 0) this.#rebuilt++;
          if (progress !== null) Atomics.add(progress, LOAD_PROGRESS.shardsLoaded, 1);
        },
      ];
    }
  }

  /** The shard, opened empty if it is not here; one of another role (primary / copy) is replaced. */
  #open(meta: CollectionMeta, shard: number, secondary: boolean, fresh = false): Shard {
    const key = `${meta.id}/${shard}`;
    this.#droppedCopies.delete(key);
    let s = this.#shards.get(key);
    if (s !== undefined && (fresh || s.secondary !== secondary)) {
      s.dispose();
      s = undefined;
    }
    if (s === undefined) {
      const options = this.#savePolicy === undefined ? {} : { savePolicy: this.#savePolicy };
      s = new Shard(meta, shard, this.#db, this.#indexDir, { ...options, secondary });
      this.#shards.set(key, s);
    }
    return s;
  }

  /**
   * Runs a write on its shard, after any save writing that shard's graphs: writes keep their
   * order (each waits its turn on the same hold) and the graph is never changed while hnswlib
   * writes it off-thread. Without a save in flight the write runs at once, synchronously.
   */
  #write<T>(collection: number, shard: number, run: (s: Shard) => Promise<T>): Promise<T> {
    const s = this.#get(collection, shard);
    if (s.writeHold === null) return run(s);
    return (async () => {
      let hold: Promise<void> | null;
      while ((hold = s.writeHold) !== null) await hold;
      return run(this.#get(collection, shard));
    })();
  }

  /**
   * Cluster mode: the apply loops become available; a shard follows its log only once the main
   * thread names it in followShards (this node holds a replica of it in the assignment).
   */
  startFollowing(followers: LogFollowers): void {
    this.#followers = followers;
  }

  #follow(collection: number, shard: number): void {
    const key = `${collection}/${shard}`;
    // A shard being restored starts following once it is (its applied_seq is the snapshot's then).
    if (this.#followers === null || this.#appliers.has(key) || this.#restoring.has(key)) return;
    this.#appliers.set(key, this.#followers.follow(this.#db, collection, shard, () => this.#shards.get(key)));
  }

  #unfollow(key: string): void {
    this.#appliers.get(key)?.stop();
    this.#appliers.delete(key);
  }

  #hold(key: string): void {
    if (!this.#holds.has(key)) this.#holds.set(key, []);
  }

  /**
   * Runs (or, with an error, fails) the requests held for the shard, in arrival order, all in
   * this turn: a request arriving later runs after them.
   */
  #release(key: string, err?: unknown): void {
    const held = this.#holds.get(key);
    if (held === undefined) return;
    this.#holds.delete(key);
    for (const h of held) {
      if (err === undefined) h.run();
      else h.fail(err);
    }
  }

  #get(collection: number, shard: number): Shard {
    const s = this.#shards.get(`${collection}/${shard}`);
    // Every live shard is opened before its collection's create answers, and loaded before a
    // replacement thread takes work, so a missing one was dropped by a DELETE while this ran,
    // or (a read copy) by a PATCH: another copy can answer that read.
    if (s === undefined && this.#droppedCopies.has(`${collection}/${shard}`)) {
      throw new QuiverError('ShardUnavailable', `Shard ${collection}/${shard}: its read copy on worker ${this.#worker} was dropped while the request was on its way; ask another copy`);
    }
    if (s === undefined) throw QuiverError.notFound(`Collection not found: it was deleted while the request ran (shard ${collection}/${shard})`);
    if (this.#appliers.size > 0) {
      const dead = this.#appliers.get(`${collection}/${shard}`)?.applier.dead;
      if (dead !== undefined && dead !== null) throw new QuiverError('ShardUnavailable', dead);
    }
    return s;
  }

  /** Answers one request with the handler of its op. */
  async handle<O extends Op>(req: RequestOf<O>): Promise<ResultOf<O>> {
    // TypeScript cannot relate the handler picked by req.op to O (a correlated union): the map's
    // type above is what checks each handler against its op.
    const handler = this.#handlers[req.op] as (r: RequestOf<O>) => ResultOf<O> | Promise<ResultOf<O>>;
    if (this.#holds.size > 0 && 'shard' in req) {
      const held = this.#holds.get(`${req.collection}/${req.shard}`);
      if (held !== undefined) {
        return new Promise<ResultOf<O>>((resolve, reject) => {
          held.push({
            run: () => {
              try {
                // The handler's synchronous part (every memory change) runs now, in order.
                Promise.resolve(handler(req)).then(resolve, reject);
              } catch (err) {
                reject(err);
              }
            },
            fail: reject,
          });
        });
      }
    }
    return handler(req);
  }

  /** A primary of this worker, for a snapshot or a restore (cluster mode). */
  #primary(collection: number, shard: number): Shard {
    const s = this.#shards.get(`${collection}/${shard}`);
    if (s === undefined) throw QuiverError.notFound(`Shard ${collection}/${shard} is not on worker ${this.#worker}`);
    if (s.secondary) throw QuiverError.precondition(`Shard ${collection}/${shard} on worker ${this.#worker} is a read copy: snapshots are of primaries`);
    return s;
  }

  /**
   * Replaces a primary with the snapshot in `file`, already checked (shard-snapshot.ts): its apply
   * loop stopped, its memory dropped, its LMDB range and graph files replaced, then loaded again.
   * Requests to it wait meanwhile (held); its apply loop, if it had one, starts again from the
   * snapshot's seq + 1. After a failure midway the shard is loaded from what LMDB holds.
   */
  async #restore(collection: number, shard: number, file: string): Promise<ResultOf<'restoreShard'>> {
    const key = `${collection}/${shard}`;
    const old = this.#primary(collection, shard);
    const meta = old.meta;
    const follow = this.#appliers.get(key);
    const run = async (): Promise<ResultOf<'restoreShard'>> => {
      follow?.stop();
      old.dispose();
      // A save in flight finishes before the files it writes are replaced.
      await old.idle();
      this.#shards.delete(key);
      try {
        return await installSnapshot(this.#db, new GraphSnapshots(this.#indexDir, collection, shard), file, `${file}.d`);
      } finally {
        rmSync(`${file}.d`, { recursive: true, force: true });
        const load = this.#open(meta, shard, false, true).load();
        this.#loads.push({ collection, shard, ...load });
      }
    };
    this.#hold(key);
    this.#restoring.add(key);
    try {
      const result = follow === undefined ? await run() : await follow.exclusive(run);
      this.#release(key);
      return result;
    } catch (err) {
      this.#release(key, err);
      throw err;
    } finally {
      this.#restoring.delete(key);
      if (follow !== undefined) {
        this.#appliers.delete(key);
        this.#follow(collection, shard);
      }
    }
  }

  /** One handler per op, each typed by its op: a handler answering another op's result does not compile. */
  readonly #handlers: { [O in Op]: (r: RequestOf<O>) => ResultOf<O> | Promise<ResultOf<O>> } = {
    ping: () => {
      const maxVersions: Record<number, number> = {};
      for (const s of this.#shards.values()) {
        maxVersions[s.collection] = Math.max(maxVersions[s.collection] ?? 0, s.maxVersion);
      }
      return {
        workerIndex: this.#worker,
        protocolVersion: PROTOCOL_VERSION,
        maxVersions,
        shardsLoaded: this.#shards.size,
        restoredShards: this.#restored,
        rebuiltShards: this.#rebuilt,
        loads: this.#loads,
        hnswBuild: hnswBuild(),
        startup: this.#clock.marks,
      };
    },
    memory: () => threadMemory(),
    issues: (req) => takeIssues(req.clear),
    liveRecall: (req) => liveRecall(req.keep),
    saveIndexes: async () => {
      // Sent at a clean shutdown, just before the thread ends. Background rebuilds stop first,
      // before any await lets one more step run: hnswlib aborts the process when the thread
      // ends during one of its calls. The graphs saved are the ones serving; one built with
      // other parameters than the configuration's is rebuilt at the next start.
      if (this.#timer !== null) clearInterval(this.#timer);
      this.#timer = null;
      for (const key of [...this.#appliers.keys()]) this.#unfollow(key);
      for (const s of this.#shards.values()) s.dispose();
      for (const s of this.#shards.values()) await s.saveIndexes();
      return null;
    },
    openShards: (req) => {
      for (const s of req.shards) {
        // A held copy starts afresh: it may replace one that missed writes (see Engine).
        this.#open(req.meta, s, req.secondary === true, req.hold === true);
        if (req.hold === true) this.#hold(`${req.meta.id}/${s}`);
      }
      return null;
    },
    loadShards: async (req) => {
      const delay = failpoint('secondary_load_delay_ms');
      if (delay !== null) await new Promise((res) => setTimeout(res, delay));
      for (const shard of req.shards) {
        const key = `${req.collection}/${shard}`;
        const s = this.#shards.get(key);
        // Dropped meanwhile, or already loaded by the load of an earlier open (see the file comment).
        if (!this.#holds.has(key) || s === undefined) continue;
        try {
          const load = s.load();
          this.#loads.push({ collection: req.collection, shard, ...load });
          if (load.graphsRebuilt > 0) this.#rebuilt++;
          else if (load.graphsRead > 0) this.#restored++;
        } catch (err) {
          this.#release(key, err);
          throw err;
        }
        this.#release(key);
      }
      return null;
    },
    updateConfig: async (req) => {
      await Promise.all([...this.#shards.values()].filter((s) => s.collection === req.meta.id).map((s) => s.updateMeta(req.meta)));
      return null;
    },
    dropShards: async (req) => {
      // Memory and graph files: the main thread reclaims the LMDB records once no worker serves
      // them. A shard never opened here (a drop resumed at start) still has its files deleted.
      // A read copy's files are its primary's: they are left alone.
      for (const shard of req.shards) {
        const key = `${req.collection}/${shard}`;
        const s = this.#shards.get(key);
        this.#release(key, QuiverError.notFound(`Collection not found: it was deleted while the request ran (shard ${key})`));
        this.#unfollow(key);
        this.#shards.delete(key);
        if (s?.secondary === true) this.#droppedCopies.add(key);
        s?.dispose();
        // A save in flight finishes first, so it cannot write files after they are deleted.
        await s?.idle();
        // A read copy's files are its primary's: they are left alone.
        if (s?.secondary !== true) new GraphSnapshots(this.#indexDir, req.collection, shard).drop();
      }
      return null;
    },
    createIndex: (req) => {
      for (const shard of req.shards) this.#get(req.collection, shard).createIndex(req.key, req.schema);
      return null;
    },
    dropIndex: (req) => {
      for (const shard of req.shards) this.#get(req.collection, shard).dropIndex(req.key);
      return null;
    },
    followShards: (req) => {
      const want = new Set(req.shards.map(([c, s]) => `${c}/${s}`));
      for (const key of [...this.#appliers.keys()]) if (!want.has(key)) this.#unfollow(key);
      // Only primaries opened here follow: one not open yet (its create is on its way) is named again later.
      for (const [c, s] of req.shards) if (this.#shards.get(`${c}/${s}`)?.secondary === false) this.#follow(c, s);
      const out: Record<string, { applied: number; dead: string | null }> = {};
      for (const [key, a] of this.#appliers) out[key] = { applied: a.applier.flushed, dead: a.applier.dead };
      return out;
    },
    payload: (req) => this.#write(req.collection, req.shard, async (s) => ({ applied: await s.updatePayload(req.change, req.ids, req.filter, req.opId, req.wait, req.guard ?? null) })),
    upsert: (req) => this.#write(req.collection, req.shard, (s) => s.upsert(req.batch, req.opId, req.wait, req.condition, req.guard ?? null)),
    updateVectors: (req) => this.#write(req.collection, req.shard, async (s) => ({ applied: await s.updateVectors(req.batch, req.opId, req.wait, req.condition, req.guard ?? null) })),
    delete: (req) => this.#write(req.collection, req.shard, async (s) => ({ deleted: await s.delete(req.ids, req.filter, req.opId, req.wait, req.guard ?? null) })),
    retrieve: (req) => this.#get(req.collection, req.shard).retrieve(req.ids, req.withPayload, req.withVector, req.filter ?? null),
    search: (req) => {
      const shard = this.#get(req.collection, req.shard);
      return req.searches.map((s) => shard.search(s));
    },
    count: (req) => this.#get(req.collection, req.shard).count(req.filter, req.exact),
    facet: (req) => this.#get(req.collection, req.shard).facet(req.key, req.filter, req.top),
    scroll: (req) => this.#get(req.collection, req.shard).scroll(req.offset, req.limit, req.filter, req.withPayload, req.withVector),
    scrollOrdered: (req) => this.#get(req.collection, req.shard).scrollOrdered(req.orderBy, req.limit, req.filter, req.withPayload, req.withVector),
    sample: (req) => this.#get(req.collection, req.shard).sample(req.limit, req.filter, req.withPayload, req.withVector),
    sparseStats: (req) => this.#get(req.collection, req.shard).sparseStats(req.vector, req.terms),
    deleteVectors: (req) => this.#write(req.collection, req.shard, async (s) => ({ applied: await s.deleteVectors(req.names, req.ids, req.filter, req.opId, req.wait, req.guard ?? null) })),
    shardInfo: (req) => this.#get(req.collection, req.shard).info(this.#worker),
    storedBytes: (req) => this.#get(req.collection, req.shard).storedBytes(),
    awaitApplied: async (req) => {
      this.#get(req.collection, req.shard);
      const key = `${req.collection}/${req.shard}`;
      if (this.#followers === null) throw QuiverError.precondition(`Shard ${key} on worker ${this.#worker} does not apply a write log (not in cluster mode)`);
      // Right after a create, a write's wait=true may reach a replica before this node has been
      // told to follow the shard (followShards): it waits for that, within the same deadline.
      const deadline = Date.now() + req.timeoutMs;
      let a = this.#appliers.get(key);
      while (a === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
        a = this.#appliers.get(key);
      }
      if (a === undefined) throw new QuiverError('ShardUnavailable', `Shard ${key} on worker ${this.#worker} does not follow its write log yet: retry the request`);
      return a.applier.awaitApplied(req.seq, Math.max(0, deadline - Date.now()));
    },
    snapshotShard: async (req) => {
      const { collection, shard } = req;
      // A Dead shard (#get refuses it) has nothing worth keeping.
      this.#get(collection, shard);
      this.#primary(collection, shard);
      const workDir = `${req.file}.d`;
      // With the apply loop paused: graphs saved at the current position, then the records taken.
      let pausedMs = 0;
      const take = async (): Promise<ShardCapture> => {
        const t0 = performance.now();
        const s = this.#primary(collection, shard);
        await s.saveIndexes();
        const capture = ShardCapture.take(this.#db, new GraphSnapshots(this.#indexDir, collection, shard), collection, shard, s.meta.config.payload_schema, workDir);
        pausedMs = Math.round(performance.now() - t0);
        return capture;
      };
      const follow = this.#appliers.get(`${collection}/${shard}`);
      try {
        const capture = follow === undefined ? await take() : await follow.exclusive(take);
        return { seq: capture.header.seq, ...(await capture.write(req.file)), pausedMs };
      } finally {
        rmSync(workDir, { recursive: true, force: true });
      }
    },
    restoreShard: async (req) => {
      this.#primary(req.collection, req.shard);
      try {
        checkSnapshot(req.file, req.collection, req.shard);
      } catch (err) {
        if (err instanceof SnapshotDamaged) throw QuiverError.precondition(`Snapshot not restored, shard ${req.collection}/${req.shard} unchanged: ${err.message}`);
        throw err;
      }
      return this.#restore(req.collection, req.shard, req.file);
    },
    logPosition: (req) => {
      const a = this.#appliers.get(`${req.collection}/${req.shard}`);
      if (a === undefined) return { applied: this.#db.meta.get(appliedSeqKey(req.collection, req.shard)) ?? 0, following: false, dead: null, purged: false };
      const { flushed, dead, purged } = a.applier;
      return { applied: flushed, following: dead === null, dead, purged };
    },
  };
}
