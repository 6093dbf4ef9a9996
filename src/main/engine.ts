// The engine's lifecycle owner on the main thread: the collection catalog (mirrored from LMDB),
// readiness (412 until every worker has loaded its shards), operation ids, and the collection
// create / update / delete transitions. Point traffic goes through the ShardRouter, which the
// engine keeps to itself: services reach shards through call / fanOut / partition, metrics ask
// for sizes, and nothing else sees the router.
//
// Copies of shards (replication_factor): the engine owns each collection's replica table (plain
// data in src/shared/placement.ts: which worker holds which copy, and whether it serves reads) and
// the transitions of its copies: created Active with the collection or loaded at start; added
// Partial by a PATCH (or rebuilt after it diverged or its worker died), Active once loaded;
// dropped by a PATCH or with the collection. The router reads the table on every request.
//
// The coordinating workers read replicated collections too, over the table published in the
// catalog snapshot; only writes of those collections stay on this thread's router (one write
// order per shard: src/main/coordinator/replica-aware.ts). What a worker may read follows two
// rules, so a read that starts after a write answered (wait=true) sees it on any copy:
// - a copy is published Active only after this router waits for it on every write and every
//   write sent before (while it was built, not waited for) has been applied there;
// - a copy that is dropped is published out of reads first, while this router still writes it
//   and waits for it; reads already sent to it meet either the full copy or, once it is gone,
//   a retryable ShardUnavailable (src/workers/shard-host.ts) and go to another Active copy.
// A copy that diverged or whose worker died is published out of reads as soon as that is known.

import { liveCollection } from '../shared/catalog.js';
import type { CatalogEntry, QuiverDb } from '../shared/db.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../shared/errors.js';
import { sumMemory, type CatalogSnapshot, type HnswBuild, type MemoryBytes, type ResultOf, type ShardLoadPhases, type ThreadMemory } from '../shared/protocol.js';
import type { CollectionConfig, CollectionMeta, FieldIndexSchema, PointId } from '../shared/types.js';
import { copyWorker, effectiveReplicas, replicaTable, type ReplicaTable, type ShardCopy } from '../shared/placement.js';
import type { LoadProgress, ShardDispatcher } from './router/dispatcher.js';
import { OpIdCounter } from '../shared/op-ids.js';
import type { StartupMark } from '../shared/startup-clock.js';
import type { PointEngine } from '../shared/point-engine.js';
import { ShardRouter, type ShardCall, type ShardOp } from '../shared/shard-router.js';
import type { WriteLog } from './cluster/logged-writes.js';
import type { ClusterShards, LocalShards } from './cluster/cluster-shards.js';
import type { ClusterCatalog } from './cluster/catalog-sync.js';

const NEXT_COLLECTION_ID = 'next_collection_id';

const DROP_BATCH = 10_000;

/** One collection's load at start, summed over its shards (logged per collection). */
export interface CollectionLoad {
  collection: string;
  shards: number;
  points: number;
  graphsRead: number;
  graphsRebuilt: number;
  replayedWrites: number;
  /** Why graphs were rebuilt, one entry per shard that rebuilt any (`shard N: reason`). */
  rebuildReasons: string[];
}

/** The workers' start-up marks and each shard's load phases, for the start-up log line. */
export interface StartupReport {
  workers: StartupMark[][];
  shards: ({ collection: number; shard: number; worker: number } & Partial<ShardLoadPhases>)[];
}

/** Times one copy is rebuilt after diverging before it is left Dead (until a restart or PATCH). */
const MAX_REBUILDS = 3;

/** What a create request leaves out: config values (default_shard_number, default_replication_factor). */
export interface CollectionDefaults {
  shard_number: number;
  replication_factor: number;
}

/** One copy of one shard, as cluster info reports it. */
export interface CopyInfo {
  shard: number;
  copy: number;
  worker: number;
  state: ShardCopy['state'];
  points: number;
}

export interface EngineOptions {
  /** The operation id counter, shared with the coordinating workers. */
  opIds?: OpIdCounter;
  /**
   * Receives the catalog after each change, and is awaited before the change answers (the
   * coordinating workers' mirror: src/workers/coordinator/catalog-mirror.ts).
   */
  publishCatalog?: (snapshot: CatalogSnapshot) => Promise<void>;
  /** What a create request leaves out (default_shard_number, default_replication_factor). */
  defaults?: CollectionDefaults;
  /** Cluster mode: point writes go through the shards' write logs (src/main/cluster/logged-writes.ts). */
  writeLog?: WriteLog;
  /**
   * Cluster mode with several nodes: call() and fanOut() reach each shard's replicas wherever
   * they live, writes through the log (src/main/cluster/cluster-shards.ts; it holds the writeLog).
   */
  shards?: ClusterShards;
  /**
   * Cluster mode: the catalog of record is etcd's (src/main/cluster/catalog-sync.ts). Creates,
   * deletes and config changes go there first; the local catalog mirrors it (mirrorCollection,
   * mirrorDelete) with its cluster-wide ids.
   */
  clusterCatalog?: ClusterCatalog;
}

export class Engine implements PointEngine {
  readonly #router: ShardRouter;
  readonly #db: QuiverDb;
  readonly #dispatcher: ShardDispatcher;
  readonly #catalog = new Map<string, CatalogEntry>();
  readonly #opIds: OpIdCounter;
  readonly #publish: ((snapshot: CatalogSnapshot) => Promise<void>) | null;
  readonly #log: WriteLog | null;
  readonly #shards: ClusterShards | null;
  /** This node's own replicas, for #shards and the internal port (set with #shards). */
  readonly #local: LocalShards | null;
  /** Cluster mode: this engine reading at the log's end (PointEngine.atLogEnd). */
  readonly atLogEnd?: () => PointEngine;
  readonly #cluster: ClusterCatalog | null;
  #catalogVersion = 0;
  readonly #drops = new Set<Promise<void>>();
  readonly #creating = new Map<string, Promise<void>>();
  #nextId = 1;
  #ready = false;
  /** Where a background task's failure is reported (the server sets its logger here). */
  onBackgroundError: (err: unknown, what: string) => void = () => undefined;
  #hnswBuild: HnswBuild | null = null;
  /** Replica tables by collection id (see the file comment). */
  readonly #replicas = new Map<number, ReplicaTable>();
  /** Rebuilds after divergence, per `collection/shard/worker`. */
  readonly #rebuilds = new Map<string, number>();
  readonly defaults: CollectionDefaults;
  /** Copy transitions on their way to the workers' catalog (cluster info waits for them). */
  readonly #transitions = new Set<Promise<void>>();
  /**
   * Resolves once the writes of the collection handed off to the workers before now have answered
   * (a copy about to be built reads LMDB after them). Set by the coordinators that route them.
   */
  handedOffWrites: (collection: string) => Promise<void> = () => Promise.resolve();
  /** Where copy transitions are reported (the server sets its logger here). */
  onReplicaEvent: (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown>) => void = () => undefined;

  constructor(db: QuiverDb, dispatcher: ShardDispatcher, opts: EngineOptions = {}) {
    this.#db = db;
    this.#dispatcher = dispatcher;
    this.defaults = opts.defaults ?? { shard_number: 1, replication_factor: 1 };
    this.#opIds = opts.opIds ?? new OpIdCounter();
    this.#publish = opts.publishCatalog ?? null;
    this.#log = opts.writeLog ?? null;
    this.#shards = opts.shards ?? null;
    this.#local = this.#shards === null ? null : this.#localShards();
    if (this.#shards !== null) this.atLogEnd = () => this.#readingAtLogEnd();
    this.#cluster = opts.clusterCatalog ?? null;
    this.#router = new ShardRouter(dispatcher, (meta) => this.#replicas.get(meta.id));
    this.#router.onDiverged = (meta, shard, worker, why) => this.#diverged(meta, shard, worker, why);
  }

  /** The replica table of a collection: plain data, for the router and whoever mirrors the catalog. */
  replicas(meta: CollectionMeta): ReplicaTable {
    return this.#router.table(meta);
  }

  /**
   * The workers holding a copy of any of the collection's shards (the dispatcher prefers them as
   * coordinators), or null for a collection unknown here. Read per request: a few entries.
   */
  copyHolders(name: string): readonly number[] | null {
    const entry = this.#catalog.get(name);
    const table = entry === undefined ? undefined : this.#replicas.get(entry.id);
    if (table === undefined) return null;
    const holders: number[] = [];
    for (const copies of table.shards) for (const { worker, state } of copies) if (state === 'Active' && !holders.includes(worker)) holders.push(worker);
    return holders;
  }

  /**
   * Whether the collection keeps more than one copy of its shards now (its writes then go through
   * this thread's router, whatever its configuration says while copies are added or dropped).
   */
  hasCopies(meta: CollectionMeta): boolean {
    return (this.#replicas.get(meta.id)?.shards[0]?.length ?? 1) > 1;
  }

  /** How many copies of each shard the collection keeps: replication_factor, at most one per worker. */
  effectiveReplicas(meta: CollectionMeta): number {
    return effectiveReplicas(this.#localFactor(meta), this.#dispatcher.workerCount);
  }

  /**
   * The replication_factor copies are made of here: in cluster mode it counts replicas on distinct
   * nodes (the controller's), so a node keeps one copy of each shard, whatever its worker count.
   */
  #localFactor(meta: CollectionMeta): number | undefined {
    return this.#cluster !== null ? 1 : meta.config.replication_factor;
  }

  #newTable(meta: CollectionMeta): ReplicaTable {
    const t = replicaTable(meta.id, meta.config.shard_number, this.#localFactor(meta), this.#dispatcher.workerCount);
    this.#replicas.set(meta.id, t);
    return t;
  }

  /**
   * Pushes the catalog as it is now to the coordinating workers, if any; resolves when they have
   * it. `unread` copies are published Dead (out of the workers' reads) whatever their state here.
   */
  async #publishCatalog(unread: ReadonlySet<ShardCopy> = new Set()): Promise<void> {
    if (this.#publish === null) return;
    const collections: CatalogSnapshot['collections'] = {};
    for (const [name, entry] of this.#catalog) {
      const table = this.#replicas.get(entry.id);
      if (table === undefined || (table.shards[0]?.length ?? 1) <= 1) {
        collections[name] = { entry };
        continue;
      }
      const shards = table.shards.map((copies) => copies.map((c) => ({ worker: c.worker, state: unread.has(c) ? ('Dead' as const) : c.state })));
      collections[name] = { entry, replicas: { collection: table.collection, shards } };
    }
    await this.#publish({ version: ++this.#catalogVersion, ready: this.#ready, collections });
  }

  /**
   * Publishes a copy transition in the background; cluster info waits for it (copies()). The
   * promise returned resolves when the workers have it (never rejects: a failure is logged).
   */
  #publishTransition(before: Promise<void> = Promise.resolve()): Promise<void> {
    const p = before.then(() => this.#publishCatalog());
    this.#transitions.add(p);
    return p.finally(() => this.#transitions.delete(p)).catch((err: unknown) => this.onBackgroundError(err, 'publishing a shard copy change to the workers'));
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** The hnswlib-node build the workers loaded (every worker decides alike), once they answered. */
  get hnswBuild(): HnswBuild | null {
    return this.#hnswBuild;
  }

  /** How far the shards' load is, while the engine is not ready (null when the dispatcher cannot tell). */
  loadProgress(): LoadProgress | null {
    return this.#dispatcher.loadProgress?.() ?? null;
  }

  /** Waits for every worker to load its shards, then opens for traffic. Resumes unfinished drops. */
  async start(): Promise<{ restoredShards: number; rebuiltShards: number; hnswBuild: HnswBuild | null; collections: CollectionLoad[]; startup: StartupReport }> {
    // Data dirs from before the drops database kept a deleted collection in the catalog, marked.
    for (const { key, value } of this.#db.catalog.getRange()) {
      if (value.deleting === true) await this.#retire(key, value);
      else this.#catalog.set(key, value);
    }
    // Every worker loads its copies before it answers the ping below: all start Active.
    for (const e of this.#catalog.values()) {
      this.#newTable(e);
      if (this.effectiveReplicas(e) > 1) this.#logCopies(e, 'loaded');
    }
    const pings = await Promise.all(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.ping(w)));
    for (const p of pings) for (const v of Object.values(p.maxVersions)) this.#opIds.seed(v);
    // Past every id the catalog and the drops hold, whatever the counter says.
    let next = this.#db.meta.get(NEXT_COLLECTION_ID) ?? 1;
    for (const e of this.#catalog.values()) next = Math.max(next, e.id + 1);
    for (const { key } of this.#db.drops.getRange()) next = Math.max(next, key + 1);
    this.#nextId = next;
    for (const { value } of this.#db.drops.getRange()) this.#startDrop(value);
    this.#hnswBuild = pings[0]?.hnswBuild ?? null;
    const byId = new Map<number, CollectionLoad>();
    for (const e of this.#catalog.values()) {
      byId.set(e.id, { collection: e.name, shards: 0, points: 0, graphsRead: 0, graphsRebuilt: 0, replayedWrites: 0, rebuildReasons: [] });
    }
    for (const l of pings.flatMap((p) => p.loads)) {
      const c = byId.get(l.collection);
      if (c === undefined) continue;
      c.shards++;
      c.points += l.points;
      c.graphsRead += l.graphsRead;
      c.graphsRebuilt += l.graphsRebuilt;
      c.replayedWrites += l.replayed;
      if (l.rebuildReason !== null) c.rebuildReasons.push(`shard ${l.shard}: ${l.rebuildReason}`);
    }
    this.#ready = true;
    await this.#publishCatalog();
    const startup: StartupReport = {
      workers: pings.map((p) => p.startup),
      shards: pings.flatMap((p) => p.loads.map((l) => ({ collection: l.collection, shard: l.shard, worker: p.workerIndex, ...l.phases }))),
    };
    return {
      startup,
      collections: [...byId.values()],
      hnswBuild: this.#hnswBuild,
      restoredShards: pings.reduce((n, p) => n + p.restoredShards, 0),
      rebuiltShards: pings.reduce((n, p) => n + p.rebuiltShards, 0),
    };
  }

  requireReady(): void {
    if (!this.#ready) throw QuiverError.precondition(ENGINE_NOT_INITIALIZED);
  }

  /** A live collection by name: 404 if unknown, 412 while it is being deleted. */
  collection(name: string): CollectionMeta {
    return liveCollection(this.#ready, name, this.#catalog.get(name));
  }

  exists(name: string): boolean {
    this.requireReady();
    const entry = this.#catalog.get(name);
    if (entry?.deleting === true) throw QuiverError.beingDeleted(name);
    return entry !== undefined;
  }

  list(): CollectionMeta[] {
    this.requireReady();
    return [...this.#catalog.values()].filter((e) => e.deleting !== true);
  }

  get workerCount(): number {
    return this.#dispatcher.workerCount;
  }

  /** One request to one shard of the collection. */
  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    if (this.#shards !== null) return this.#shards.call(meta, shard, req, this.#local!, false);
    if (this.#log !== null) {
      const logged = this.#log.write(meta, shard, req, (seq, timeoutMs) => this.#router.call(meta, shard, { op: 'awaitApplied', seq, timeoutMs }));
      // The log answers each write op with that op's result (logged-writes.ts).
      if (logged !== null) return logged as Promise<ResultOf<O>>;
    }
    return this.#router.call(meta, shard, req, transfer);
  }

  /** The operation id a finished write answers: in cluster mode the largest log sequence of its parts. */
  operationId(opId: number): number {
    return this.#log === null ? opId : this.#log.operationId(opId);
  }

  /** The same request to every shard of the collection, results in shard order. */
  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    if (this.#shards !== null) return this.#shards.fanOut(meta, req, this.#local!, false);
    return this.#router.fanOut(meta, req);
  }

  // --- Cluster mode across nodes (src/main/cluster/cluster-shards.ts): this node's own replicas
  // run on the shard's primary worker, the one that follows the shard's write log.

  /** This node's own replicas by cluster-wide collection id (the internal port serves them). */
  localShards(): LocalShards {
    return this.#local ?? this.#localShards();
  }

  #localShards(): LocalShards {
    const byId = (collectionId: number): CollectionMeta => {
      // Still loading: another replica answers (a 412 would reach the caller's client).
      if (!this.#ready) throw new QuiverError('ShardUnavailable', 'This node is still loading its shards');
      for (const e of this.#catalog.values()) if (e.id === collectionId && e.deleting !== true) return e;
      // Not mirrored here yet, or being deleted: the caller tries another replica.
      throw new QuiverError('ShardUnavailable', `Collection ${collectionId} is not open on this node`);
    };
    return {
      call: async (collectionId, shard, req) => {
        const meta = byId(collectionId);
        return this.#router.callOn(this.#router.workerOf(meta, shard), meta, shard, req);
      },
      awaitApplied: async (collectionId, shard, seq, timeoutMs) => {
        const meta = byId(collectionId);
        return this.#router.callOn(this.#router.workerOf(meta, shard), meta, shard, { op: 'awaitApplied', seq, timeoutMs });
      },
    };
  }

  /** A view of this engine whose reads wait for the log's end (a read's strong `consistency`). */
  #readingAtLogEnd(): PointEngine {
    const shards = this.#shards!;
    const local = this.#local!;
    return {
      requireReady: () => this.requireReady(),
      collection: (name) => this.collection(name),
      nextOpId: (collection) => this.nextOpId(collection),
      operationId: (opId) => this.operationId(opId),
      call: (meta, shard, req) => shards.call(meta, shard, req, local, true),
      fanOut: (meta, req) => shards.fanOut(meta, req, local, true),
      partition: (meta, ids) => this.partition(meta, ids),
    };
  }

  /** Groups item indexes by the shard their id lives in. */
  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.#router.partition(meta, ids);
  }

  /** Points in the collection, counted by its shards (not exact: the metrics' figure). */
  async pointCount(meta: CollectionMeta): Promise<number> {
    const parts = await this.#router.fanOut(meta, { op: 'count', filter: null, exact: false });
    return parts.reduce((a, b) => a + b, 0);
  }

  /** Points and stored vectors per vector name, summed over the collection's shards. */
  async collectionSize(meta: CollectionMeta): Promise<{ points: number; vectors: Record<string, number> }> {
    const shards = await this.#router.fanOut(meta, { op: 'shardInfo' });
    const vectors: Record<string, number> = {};
    for (const s of shards) for (const [v, n] of Object.entries(s.vectors)) vectors[v] = (vectors[v] ?? 0) + n;
    return { points: shards.reduce((n, s) => n + s.points, 0), vectors };
  }

  /** Background graph saves and writes not yet covered by one, summed over the collection's shards. */
  async graphSaves(meta: CollectionMeta): Promise<{ saves: number; unsaved: number }> {
    const shards = await this.#router.fanOut(meta, { op: 'shardInfo' });
    return { saves: shards.reduce((n, s) => n + s.graphSaves, 0), unsaved: shards.reduce((n, s) => n + s.unsavedWrites, 0) };
  }

  /** Estimated in-memory bytes of the collection by kind, summed over its shards. */
  async collectionMemory(meta: CollectionMeta): Promise<MemoryBytes> {
    const shards = await this.#router.fanOut(meta, { op: 'shardInfo' });
    return sumMemory(shards.map((s) => s.memory));
  }

  /** Each worker thread's V8 heap figures, by worker index (telemetry). */
  workerMemory(): Promise<ThreadMemory[]> {
    return Promise.all(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.memory(w)));
  }

  /** From the counter every thread shares: grows per collection, though not by exactly 1. */
  nextOpId(_collection: number): number {
    return this.#opIds.next();
  }

  async createCollection(name: string, config: CollectionConfig): Promise<void> {
    this.requireReady();
    if (this.#cluster !== null) return this.#createInCluster(this.#cluster, name, config);
    const existing = this.#catalog.get(name);
    if (existing?.deleting === true) throw QuiverError.beingDeleted(name);
    if (existing !== undefined) throw QuiverError.alreadyExists(`Collection already exists: ${name}`);
    // Taken from memory synchronously: two creates in flight never share an internal id.
    const id = this.#nextId++;
    const entry: CatalogEntry = { id, name, config, created_at: new Date().toISOString() };
    await this.#createLocal(entry, () => void this.#db.meta.put(NEXT_COLLECTION_ID, this.#nextId));
  }

  /**
   * Opens a new collection here under `entry` (its id already chosen); `before` runs first, in the
   * create's own try. `streams`: whether this node makes its write logs (not a mirrored copy's:
   * the node that answered the create did).
   */
  async #createLocal(entry: CatalogEntry, before: () => void = () => undefined, streams = true): Promise<void> {
    const { id, name } = entry;
    // Claim the name synchronously, so a concurrent create of the same name meets it.
    this.#catalog.set(name, entry);
    const created = (async () => {
      try {
        before();
        await this.#db.catalog.put(name, entry);
        await this.#db.catalog.flushed;
        if (streams) await this.#log?.createStreams(entry);
        await this.#router.control(entry, (shards, secondary) => ({ op: 'openShards', meta: entry, shards, secondary }), this.#newTable(entry));
        if (this.effectiveReplicas(entry) > 1) this.#logCopies(entry, 'created');
        await this.#publishCatalog();
      } catch (err) {
        this.#replicas.delete(id);
        // Undo only what is this create's own: the name may have been taken again meanwhile.
        if (this.#catalog.get(name)?.id === id) this.#catalog.delete(name);
        if (this.#db.catalog.get(name)?.id === id) await this.#db.catalog.remove(name).catch(() => undefined);
        throw err;
      }
    })();
    this.#creating.set(name, created);
    try {
      await created;
    } finally {
      if (this.#creating.get(name) === created) this.#creating.delete(name);
    }
  }

  // --- Cluster mode (issue 16, decisions 2 and 3): etcd's catalog first, this one mirrors it. ---

  /** The create in etcd (409 there when the name exists anywhere), then here, streams included, then placed. */
  async #createInCluster(cluster: ClusterCatalog, name: string, config: CollectionConfig): Promise<void> {
    const entry = await cluster.create(name, config);
    try {
      await cluster.serialize(() => this.mirrorCollection(entry, true));
    } catch (err) {
      // Not made here (its streams, say): out of etcd again, so the name is free for a retry.
      if ((await cluster.markDeleting(name).catch(() => null)) === entry.id) {
        await cluster.serialize(() => this.mirrorDelete(name, entry.id)).catch(() => undefined);
        await cluster.removed(name, entry.id).catch(() => undefined);
      }
      throw err;
    }
    await cluster.placed(entry);
  }

  /** Marks the entry deleting in etcd, deletes here (streams included), then frees the name in etcd. */
  async #deleteInCluster(cluster: ClusterCatalog, name: string): Promise<boolean> {
    const id = await cluster.markDeleting(name);
    if (id === null) return false;
    await cluster.serialize(() => this.mirrorDelete(name, id));
    await cluster.removed(name, id);
    return true;
  }

  /**
   * Cluster mode: makes this node's catalog hold `entry` (etcd's): created with its id when
   * missing (after removing a local collection of that name with another id), its config applied
   * when it changed. `streams`: the node that answers the create makes the shards' streams.
   */
  async mirrorCollection(entry: CatalogEntry, streams = false): Promise<void> {
    const local = this.#catalog.get(entry.name);
    if (local !== undefined && local.id !== entry.id) await this.mirrorDelete(entry.name, local.id);
    const cur = this.#catalog.get(entry.name);
    if (cur === undefined) return this.#createLocal(entry, undefined, streams);
    if (streams) await this.#log?.createStreams(cur);
    if (JSON.stringify(cur.config) === JSON.stringify(entry.config)) return;
    const next: CatalogEntry = { ...cur, config: entry.config };
    this.#catalog.set(next.name, next);
    await this.#db.catalog.put(next.name, next);
    await this.#router.control(next, () => ({ op: 'updateConfig', meta: next }));
    const before = cur.config.payload_schema;
    const after = entry.config.payload_schema;
    for (const key of Object.keys(before)) if (!(key in after)) await this.#router.control(next, (shards) => ({ op: 'dropIndex', collection: next.id, shards, key }));
    for (const [key, schema] of Object.entries(after)) {
      if (JSON.stringify(before[key]) !== JSON.stringify(schema)) await this.#router.control(next, (shards) => ({ op: 'createIndex', collection: next.id, shards, key, schema }));
    }
    await this.#publishCatalog();
  }

  /** Cluster mode: removes the local collection `name` if it is collection `id`. */
  async mirrorDelete(name: string, id: number): Promise<void> {
    if (this.#catalog.get(name)?.id !== id) return;
    await this.#deleteLocal(name);
  }

  /**
   * Cluster mode: the shards (`[collection id, shard]`) this node's workers follow (those it holds
   * a replica of), each on the worker holding it here; answers their positions by "<id>/<shard>".
   */
  async followShards(shards: readonly [number, number][]): Promise<Record<string, { applied: number; dead: string | null }>> {
    const byWorker: [number, number][][] = Array.from({ length: this.#dispatcher.workerCount }, () => []);
    for (const [c, s] of shards) {
      const w = this.#replicas.get(c)?.shards[s]?.[0]?.worker;
      if (w !== undefined) byWorker[w]!.push([c, s]);
    }
    const parts = await Promise.all(byWorker.map((list, w) => this.#router.controlOn<'followShards'>(w, { op: 'followShards', shards: list })));
    return Object.assign({}, ...parts) as Record<string, { applied: number; dead: string | null }>;
  }

  /** Whether collection `id` is in this node's catalog (not being deleted). */
  holdsCollection(id: number): boolean {
    for (const e of this.#catalog.values()) if (e.id === id && e.deleting !== true) return true;
    return false;
  }

  async updateCollection(meta: CollectionMeta): Promise<void> {
    // Cluster mode: in the one order the mirror's changes run in (catalog-sync.ts).
    if (this.#cluster !== null) return this.#cluster.serialize(() => this.#updateCollection(meta));
    return this.#updateCollection(meta);
  }

  async #updateCollection(meta: CollectionMeta): Promise<void> {
    const entry: CatalogEntry = { ...meta };
    await this.#replace(entry);
    await this.#router.control(entry, () => ({ op: 'updateConfig', meta: entry }));
    await this.#resize(entry);
    await this.#publishCatalog();
  }

  /**
   * Brings the copies to the configured count. New copies receive writes at once and serve reads
   * once built (in the background: the PATCH does not wait, as Qdrant's replica transfer);
   * removed copies stop at once and their worker drops them (memory only).
   */
  async #resize(meta: CollectionMeta): Promise<void> {
    const table = this.#replicas.get(meta.id);
    if (table === undefined) return;
    const want = this.effectiveReplicas(meta);
    const have = table.shards[0]?.length ?? 1;
    if (want === have) return;
    const workerCount = this.#dispatcher.workerCount;
    if (want < have) {
      // Out of the workers' reads first, while this router still writes them and waits for them.
      await this.#publishCatalog(new Set(table.shards.flatMap((copies) => copies.slice(want))));
      const drops = new Map<number, number[]>();
      table.shards.forEach((copies, s) => {
        for (const c of copies.splice(want)) drops.set(c.worker, [...(drops.get(c.worker) ?? []), s]);
      });
      this.#logCopies(meta, 'lowered');
      await Promise.all([...drops].map(([w, shards]) => this.#router.controlOn<'dropShards'>(w, { op: 'dropShards', collection: meta.id, shards })));
      return;
    }
    table.shards.forEach((copies, s) => {
      for (let r = have; r < want; r++) {
        const copy: ShardCopy = { worker: copyWorker(meta.id, s, r, workerCount), state: 'Partial' };
        copies.push(copy);
        this.#build(meta, s, copy);
      }
    });
    this.#logCopies(meta, 'raised');
  }

  /**
   * (Re)builds a read copy: opened held, so every write from now on reaches it and waits there;
   * loaded from LMDB once the writes in flight before it have answered (so LMDB has them); the
   * held writes then apply in order (the replay guard makes one already loaded harmless). Active
   * when done, unless it was dropped or rebuilt again meanwhile.
   */
  #build(meta: CollectionMeta, shard: number, copy: ShardCopy): void {
    copy.state = 'Partial';
    // In the same turn as the state change: no write is sent between them.
    const opened = this.#router.controlOn<'openShards'>(copy.worker, { op: 'openShards', meta, shards: [shard], secondary: true, hold: true });
    const earlier = Promise.all([this.#router.writesSettled(meta, shard), this.handedOffWrites(meta.name)]);
    void (async () => {
      await opened;
      await earlier;
      await this.#router.controlOn<'loadShards'>(copy.worker, { op: 'loadShards', collection: meta.id, shards: [shard] });
    })().then(
      () => {
        if (copy.state !== 'Partial' || !this.#holds(meta.id, copy)) return;
        // Waited for by every write from now on; the workers read it once the writes sent while it
        // was built (not waited for) are applied there too.
        copy.state = 'Active';
        void this.#publishTransition(this.#router.writesApplied(meta, shard));
        this.onReplicaEvent('info', 'shard copy built: serving reads', { collection: meta.name, shard, worker: copy.worker });
      },
      (err: unknown) => {
        if (!this.#holds(meta.id, copy)) return;
        copy.state = 'Dead';
        void this.#publishTransition();
        this.onReplicaEvent('error', 'shard copy failed to build: it serves no reads', { collection: meta.name, shard, worker: copy.worker, err });
      },
    );
  }

  /** Whether `copy` is still one of the collection's copies (not dropped by a PATCH or DELETE). */
  #holds(collection: number, copy: ShardCopy): boolean {
    return this.#replicas.get(collection)?.shards.some((copies) => copies.includes(copy)) === true;
  }

  /** A copy answered a write otherwise than its primary: out of reads, then rebuilt. */
  #diverged(meta: CollectionMeta, shard: number, worker: number, why: string): Promise<void> {
    const copy = this.#replicas.get(meta.id)?.shards[shard]?.find((c, r) => r > 0 && c.worker === worker);
    // Out of reads already (its worker died, say): the write waits for that news to reach the workers.
    if (copy === undefined || copy.state === 'Dead') return Promise.allSettled([...this.#transitions]).then(() => undefined);
    copy.state = 'Dead';
    const key = `${meta.id}/${shard}/${worker}`;
    const n = (this.#rebuilds.get(key) ?? 0) + 1;
    this.#rebuilds.set(key, n);
    const rebuild = n <= MAX_REBUILDS;
    this.onReplicaEvent('error', `shard copy diverged from its primary: taken out of reads${rebuild ? ' and rebuilt' : `; left out after ${MAX_REBUILDS} rebuilds`}`, {
      collection: meta.name,
      shard,
      worker,
      reason: why,
    });
    if (rebuild) this.#build(this.#catalog.get(meta.name) ?? meta, shard, copy);
    // The write that found it answers once no worker reads it any more.
    return this.#publishTransition();
  }

  /**
   * A worker thread ended and a new one is loading its shards: its primaries serve no reads until
   * it answers (other copies do), its read copies are rebuilt (writes in flight on the old thread
   * were lost there). Called as the old thread ends: both copies are out of reads and writes at
   * once, and the new thread is asked on the next turn (during this event piscina still holds
   * the dying thread, and a task given to it now fails).
   */
  workerRestarted(worker: number): void {
    const primaries: ShardCopy[] = [];
    const copies: { meta: CollectionMeta; shard: number; copy: ShardCopy }[] = [];
    for (const e of this.#catalog.values()) {
      const table = this.#replicas.get(e.id);
      if (table === undefined || e.deleting === true) continue;
      table.shards.forEach((cs, s) => {
        cs.forEach((c, r) => {
          if (c.worker !== worker || cs.length === 1) return;
          c.state = 'Dead';
          if (r === 0) primaries.push(c);
          else copies.push({ meta: e, shard: s, copy: c });
        });
      });
    }
    if (primaries.length === 0 && copies.length === 0) return;
    void this.#publishTransition();
    setImmediate(() => {
      for (const { meta, shard, copy } of copies) {
        // Not rebuilt already (diverged meanwhile) nor dropped.
        if (copy.state === 'Dead' && this.#holds(meta.id, copy)) this.#build(this.#catalog.get(meta.name) ?? meta, shard, copy);
      }
      if (copies.length > 0) void this.#publishTransition();
      if (primaries.length === 0) return;
      // The ping waits for the new thread's loads (its module loads them before taking a task).
      void this.#router.ping(worker).then(
        () => {
          for (const c of primaries) if (c.state === 'Dead') c.state = 'Active';
          void this.#publishTransition();
        },
        (err: unknown) => this.onReplicaEvent('error', 'worker did not come back: its primaries serve no reads', { worker, err }),
      );
    });
  }

  #logCopies(meta: CollectionMeta, what: string): void {
    this.onReplicaEvent('info', `shard copies ${what}`, {
      collection: meta.name,
      replication_factor: meta.config.replication_factor ?? 1,
      copies_per_shard: this.effectiveReplicas(meta),
      workers: this.#dispatcher.workerCount,
    });
  }

  /** Every copy of every shard, with its state and (for Active ones) its point count. */
  async copies(meta: CollectionMeta): Promise<CopyInfo[]> {
    // A copy reported Active is one the workers read too.
    await Promise.allSettled([...this.#transitions]);
    const table = this.replicas(meta);
    const out: Promise<CopyInfo>[] = [];
    table.shards.forEach((copies, shard) => {
      copies.forEach((c, copy) => {
        // A copy being built holds its requests: it is not asked.
        const points = c.state === 'Active' ? this.#router.callOn(c.worker, meta, shard, { op: 'count', filter: null, exact: false }) : Promise.resolve(0);
        out.push(points.then((n) => ({ shard, copy, worker: c.worker, state: c.state, points: n })));
      });
    });
    return Promise.all(out);
  }

  /**
   * Requests each worker served, per op (metrics: which copies serve), whichever thread sent them;
   * without worker threads, those this thread's router sent.
   */
  sentCounts(): { worker: number; op: string; count: number }[] {
    return this.#dispatcher.servedCounts?.() ?? this.#router.sentCounts();
  }

  /** Writes a changed entry of a live collection; never brings back one deleted meanwhile. */
  async #replace(entry: CatalogEntry): Promise<void> {
    this.collection(entry.name);
    if (this.#catalog.get(entry.name)?.id !== entry.id) throw QuiverError.collectionNotFound(entry.name);
    // Cluster mode: etcd's catalog first; the other nodes' mirrors apply it (mirrorCollection).
    if (this.#cluster !== null) await this.#cluster.update(entry.name, entry.id, entry.config);
    this.#catalog.set(entry.name, entry);
    await this.#db.catalog.put(entry.name, entry);
  }

  /** Adds (schema) or removes (null) the field index on `key`, in the catalog and in every shard. */
  async setIndex(meta: CollectionMeta, key: string, schema: FieldIndexSchema | null): Promise<void> {
    if (this.#cluster !== null) return this.#cluster.serialize(() => this.#setIndex(meta, key, schema));
    return this.#setIndex(meta, key, schema);
  }

  async #setIndex(meta: CollectionMeta, key: string, schema: FieldIndexSchema | null): Promise<void> {
    const config: CollectionConfig = { ...meta.config, payload_schema: { ...meta.config.payload_schema } };
    if (schema === null) delete config.payload_schema[key];
    else config.payload_schema[key] = schema;
    const entry: CatalogEntry = { ...meta, config };
    await this.#replace(entry);
    await this.#router.control(entry, (shards) =>
      schema === null
        ? { op: 'dropIndex', collection: entry.id, shards, key }
        : { op: 'createIndex', collection: entry.id, shards, key, schema },
    );
    await this.#publishCatalog();
  }

  /**
   * Takes the collection out of the catalog and answers once that is on disk: from then on the
   * name is free (Qdrant clients' recreateCollection deletes and creates at once). Its data is
   * reclaimed in the background under its internal id, which a new collection of the same name
   * never shares. Requests on the name meet 412 only while this call is in progress.
   * False if there is no such name.
   */
  async deleteCollection(name: string): Promise<boolean> {
    this.requireReady();
    if (this.#cluster !== null) return this.#deleteInCluster(this.#cluster, name);
    return this.#deleteLocal(name);
  }

  async #deleteLocal(name: string): Promise<boolean> {
    // A create of this name still opening its shards finishes first, so its shards never open
    // after their drop.
    await this.#creating.get(name)?.catch(() => undefined);
    const entry = this.#catalog.get(name);
    if (entry === undefined) return false;
    if (entry.deleting === true) throw QuiverError.beingDeleted(name);
    this.#catalog.set(name, { ...entry, deleting: true });
    try {
      await this.#publishCatalog();
      await this.#retire(name, entry);
    } catch (err) {
      this.#catalog.set(name, entry);
      await this.#publishCatalog();
      throw err;
    }
    this.#catalog.delete(name);
    // Requests stop reaching the copies now; the drop reaches every one of them.
    const table = this.#replicas.get(entry.id);
    this.#replicas.delete(entry.id);
    await this.#publishCatalog();
    this.#startDrop(entry, table);
    return true;
  }

  /** Moves a catalog entry to the drops database in one durable transaction. */
  async #retire(name: string, entry: CatalogEntry): Promise<void> {
    const { deleting: _, ...dropped } = entry;
    await this.#db.root.transaction(() => {
      void this.#db.catalog.remove(name);
      void this.#db.drops.put(entry.id, dropped);
    });
    await this.#db.root.flushed;
  }

  #startDrop(entry: CatalogEntry, table?: ReplicaTable): void {
    // A drop that fails keeps its record in the drops database, and the next start resumes it.
    const p = this.#drop(entry, table)
      .catch((err: unknown) => this.onBackgroundError(err, `dropping the data of deleted collection ${entry.name} (id ${entry.id})`))
      .finally(() => this.#drops.delete(p));
    this.#drops.add(p);
  }

  async #drop(entry: CatalogEntry, table?: ReplicaTable): Promise<void> {
    // Without a table (a drop resumed at start) every configured copy's worker is told: one that
    // holds nothing deletes the primary's files, which is what the drop wants.
    await this.#router.control(entry, (shards) => ({ op: 'dropShards', collection: entry.id, shards }), table);
    await this.#log?.deleteStreams(entry);
    for (;;) {
      let last: Promise<boolean> | null = null;
      let n = 0;
      for (const key of this.#db.points.getKeys({ start: [entry.id], end: [entry.id + 1], limit: DROP_BATCH })) {
        last = this.#db.points.remove(key);
        n++;
      }
      if (last !== null) await last;
      if (n < DROP_BATCH) break;
    }
    await this.#db.drops.remove(entry.id);
  }

  /** Finishes background drops, saves what changed in the HNSW graphs since their last background save (a clean restart then replays nothing), stops the workers, closes LMDB. */
  async close(): Promise<void> {
    const wasReady = this.#ready;
    this.#ready = false;
    await Promise.allSettled([...this.#drops]);
    if (wasReady) {
      await Promise.allSettled(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.saveIndexes(w)));
    }
    await this.#dispatcher.close();
    await this.#log?.close().catch(() => undefined);
    await this.#db.root.close();
  }
}
