// The engine's lifecycle owner on the main thread, as one facade over the modules of this folder:
// - catalog.ts: the collection catalog (mirrored from LMDB), readiness (412 until every worker
//   has loaded its shards) and collection ids; collections.ts: its create / update / delete
//   transitions, cluster mode's mirror of etcd's catalog included; drops.ts: deleted data
//   reclaimed in the background; publish.ts: the catalog pushed to the coordinating workers;
// - replicas.ts: each collection's replica table and its copies' transitions, and the ShardRouter
//   that reads it (the rules on what a worker may read are there);
// - point-engines.ts, cluster-point-engine.ts: how point calls reach the shards, one
//   implementation per mode, chosen by the server (EngineOptions.points) and fixed from then on;
// - sizes.ts: what metrics ask for; start.ts: the load at start.
// Point traffic goes through the router, which the engine keeps to itself: services reach shards
// through call / fanOut / partition, metrics ask for sizes, and nothing else sees the router.
//
// Invariant: every collaborator is given to the constructor (events, the handed-off writes
// tracker, the point mode); nothing is wired into the engine after it is built.

import type { CatalogEntry, QuiverDb } from '../../shared/db.js';
import type { HnswBuild, ResultOf, WorkerReply } from '../../shared/protocol.js';
import type { IssueRecord, MemoryBytes, ShardInfo, ThreadMemory } from '../../shared/shard-reports.js';
import type { CatalogSnapshot, RoutedCall } from '../../shared/coordination.js';
import { QuiverError } from '../../shared/errors.js';
import type { CollectionConfig, CollectionMeta, FieldIndexSchema, PointId } from '../../shared/types.js';
import type { ReplicaTable } from '../../shared/placement.js';
import type { LoadProgress, ShardDispatcher } from '../router/dispatcher.js';
import { OpIdCounter } from '../../shared/op-ids.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { ShardCall, ShardOp, ShardRouter } from '../../shared/shard-router.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { LocalShards } from '../../shared/cluster/cluster-shards.js';
import type { ClusterCatalog } from '../cluster/catalog-sync.js';
import { Catalog } from './catalog.js';
import { localShardsOf } from './cluster-point-engine.js';
import { Collections } from './collections.js';
import { Drops } from './drops.js';
import { NO_EVENTS, type EngineEvents } from './events.js';
import { HandedOffWrites } from './handed-off.js';
import { localPoints, type MainPointEngine, type PointMode } from './point-engines.js';
import { CatalogPublisher } from './publish.js';
import { Replicas, type CopyInfo } from './replicas.js';
import { Sizes, type LiveRecallFigures } from './sizes.js';
import { collectionLoads, loadAll, startupReport, type CollectionLoad, type StartupReport } from './start.js';

/** What a create request leaves out: config values (default_shard_number, default_replication_factor). */
export interface CollectionDefaults {
  shard_number: number;
  replication_factor: number;
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
  /**
   * How point calls reach the shards: localPoints() (the default), loggedPoints(writeLog) (writes
   * through the shards' write logs, src/shared/cluster/logged-writes.ts), or clusterPoints(shards,
   * writeLog) (each shard's replicas wherever they live, src/shared/cluster/cluster-shards.ts).
   */
  points?: PointMode;
  /**
   * Cluster mode: the catalog of record is etcd's (src/main/cluster/catalog-sync.ts). Creates,
   * deletes and config changes go there first; the local catalog mirrors it (mirrorCollection,
   * mirrorDelete) with its cluster-wide ids.
   */
  clusterCatalog?: ClusterCatalog;
  /** Where background failures and copy transitions are reported (default: nowhere). */
  events?: EngineEvents;
  /**
   * The writes handed off to the worker coordinators and not yet answered (a copy about to be
   * built reads LMDB after them); the coordinators that route them track them there.
   */
  handedOffWrites?: Pick<HandedOffWrites, 'settled'>;
}

export class Engine implements PointEngine {
  readonly #db: QuiverDb;
  readonly #dispatcher: ShardDispatcher;
  readonly #catalog: Catalog;
  readonly #replicas: Replicas;
  readonly #router: ShardRouter;
  readonly #publisher: CatalogPublisher;
  readonly #collections: Collections;
  readonly #drops: Drops;
  readonly #sizes: Sizes;
  readonly #opIds: OpIdCounter;
  /** The point mode's engine: call / fanOut / operationId / atLogEnd go to it. */
  readonly #points: MainPointEngine;
  /** This node's own replicas by cluster-wide collection id (the internal port serves them). */
  readonly #local: LocalShards;
  /** The shards' write logs, closed with the engine (null: none). */
  readonly #log: WriteLog | null;
  #hnswBuild: HnswBuild | null = null;
  readonly defaults: CollectionDefaults;
  /** Cluster mode: this engine reading at the log's end (PointEngine.atLogEnd). */
  readonly atLogEnd?: () => PointEngine;

  constructor(db: QuiverDb, dispatcher: ShardDispatcher, opts: EngineOptions = {}) {
    this.#db = db;
    this.#dispatcher = dispatcher;
    this.defaults = opts.defaults ?? { shard_number: 1, replication_factor: 1 };
    this.#opIds = opts.opIds ?? new OpIdCounter();
    const events = opts.events ?? NO_EVENTS;
    const mode = opts.points ?? localPoints();
    const cluster = opts.clusterCatalog ?? null;
    this.#log = mode.writeLog;
    this.#catalog = new Catalog(db);
    const tables = new Map<number, ReplicaTable>();
    this.#publisher = new CatalogPublisher(opts.publishCatalog ?? null, this.#catalog, tables);
    this.#replicas = new Replicas({
      dispatcher,
      catalog: this.#catalog,
      tables,
      publisher: this.#publisher,
      events,
      handedOff: opts.handedOffWrites ?? new HandedOffWrites(),
      onePerNode: cluster !== null,
    });
    this.#router = this.#replicas.router;
    this.#drops = new Drops(db, this.#router, this.#log, events);
    this.#collections = new Collections({
      db,
      catalog: this.#catalog,
      replicas: this.#replicas,
      publisher: this.#publisher,
      drops: this.#drops,
      writeLog: this.#log,
      cluster,
    });
    this.#sizes = new Sizes(this.#router, dispatcher);
    this.#local = localShardsOf(this.#catalog, this.#router);
    this.#points = mode.create({ collections: this.#catalog, router: this.#router, opIds: this.#opIds, local: this.#local });
    if (this.#points.atLogEnd !== undefined) this.atLogEnd = this.#points.atLogEnd;
  }

  // --- Readiness and the catalog (catalog.ts, start.ts). ---

  get ready(): boolean {
    return this.#catalog.ready;
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
    const pings = await loadAll({ db: this.#db, catalog: this.#catalog, replicas: this.#replicas, drops: this.#drops, opIds: this.#opIds, workerCount: this.#dispatcher.workerCount });
    this.#hnswBuild = pings[0]?.hnswBuild ?? null;
    const collections = collectionLoads(this.#catalog, pings);
    this.#catalog.markReady();
    await this.#publisher.publish();
    return {
      startup: startupReport(pings),
      collections,
      hnswBuild: this.#hnswBuild,
      restoredShards: pings.reduce((n, p) => n + p.restoredShards, 0),
      rebuiltShards: pings.reduce((n, p) => n + p.rebuiltShards, 0),
    };
  }

  requireReady(): void {
    this.#catalog.requireReady();
  }

  /** A live collection by name: 404 if unknown, 412 while it is being deleted. */
  collection(name: string): CollectionMeta {
    return this.#catalog.collection(name);
  }

  exists(name: string): boolean {
    return this.#catalog.exists(name);
  }

  list(): CollectionMeta[] {
    return this.#catalog.list();
  }

  get workerCount(): number {
    return this.#dispatcher.workerCount;
  }

  /** Whether collection `id` is in this node's catalog (not being deleted). */
  holdsCollection(id: number): boolean {
    return this.#catalog.byId(id) !== undefined;
  }

  // --- Collection transitions (collections.ts). ---

  createCollection(name: string, config: CollectionConfig): Promise<void> {
    return this.#collections.create(name, config);
  }

  updateCollection(meta: CollectionMeta): Promise<void> {
    return this.#collections.update(meta);
  }

  /** Adds (schema) or removes (null) the field index on `key`, in the catalog and in every shard. */
  setIndex(meta: CollectionMeta, key: string, schema: FieldIndexSchema | null): Promise<void> {
    return this.#collections.setIndex(meta, key, schema);
  }

  /** Takes the collection out of the catalog (its data goes in the background); false if there is no such name. */
  deleteCollection(name: string): Promise<boolean> {
    return this.#collections.delete(name);
  }

  /** Cluster mode: makes this node's catalog hold `entry` (etcd's); `streams`: make the shards' streams. */
  mirrorCollection(entry: CatalogEntry, streams = false): Promise<void> {
    return this.#collections.mirrorCollection(entry, streams);
  }

  /** Cluster mode: removes the local collection `name` if it is collection `id`. */
  mirrorDelete(name: string, id: number): Promise<void> {
    return this.#collections.mirrorDelete(name, id);
  }

  // --- Copies of shards (replicas.ts). ---

  /** The replica table of a collection: plain data, for the router and whoever mirrors the catalog. */
  replicas(meta: CollectionMeta): ReplicaTable {
    return this.#replicas.table(meta);
  }

  /** The workers holding a copy of any of the collection's shards, or null for a collection unknown here. */
  copyHolders(name: string): readonly number[] | null {
    return this.#replicas.copyHolders(name);
  }

  /** Whether the collection keeps more than one copy of its shards now. */
  hasCopies(meta: CollectionMeta): boolean {
    return this.#replicas.hasCopies(meta);
  }

  /** How many copies of each shard the collection keeps: replication_factor, at most one per worker. */
  effectiveReplicas(meta: CollectionMeta): number {
    return this.#replicas.effectiveReplicas(meta);
  }

  /** A worker thread ended and a new one is loading its shards (see replicas.ts). */
  workerRestarted(worker: number): void {
    this.#replicas.workerRestarted(worker);
  }

  /** Every copy of every shard, with its state and (for Active ones) its point count. */
  copies(meta: CollectionMeta): Promise<CopyInfo[]> {
    return this.#replicas.copies(meta);
  }

  /** Each shard's figures from this node's own copy (telemetry's `local`). */
  localInfo(meta: CollectionMeta): Promise<ShardInfo[]> {
    return this.#replicas.localInfo(meta);
  }

  /** Cluster mode: the shards this node's workers follow; answers their positions by "<id>/<shard>". */
  followShards(shards: readonly [number, number][]): Promise<Record<string, { applied: number; dead: string | null }>> {
    return this.#replicas.followShards(shards);
  }

  // --- Point calls (the point mode's engine). ---

  /**
   * A coordinating worker's shard call for a write of a collection that keeps copies: through this
   * thread's router, which writes the shard's copies in the order the calls reach it (never
   * rejects: a failure is the reply's). A collection recreated since the worker looked it up is
   * not touched.
   */
  async routeCall(w: RoutedCall): Promise<WorkerReply> {
    try {
      const meta = this.collection(w.collection);
      if (meta.id !== w.collectionId) throw QuiverError.collectionNotFound(w.collection);
      return { ok: true, result: await this.call(meta, w.shard, w.req) };
    } catch (err) {
      return { ok: false, error: QuiverError.toWire(err) };
    }
  }

  /** One request to one shard of the collection. */
  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    return this.#points.call(meta, shard, req, transfer);
  }

  /** The operation id a finished write answers: with the write logs the largest log sequence of its parts. */
  operationId(opId: number): number {
    return this.#points.operationId(opId);
  }

  /** The same request to every shard of the collection, results in shard order. */
  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.#points.fanOut(meta, req);
  }

  /** Groups item indexes by the shard their id lives in. */
  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.#points.partition(meta, ids);
  }

  /** From the counter every thread shares: grows per collection, though not by exactly 1. */
  nextOpId(collection: number): number {
    return this.#points.nextOpId(collection);
  }

  /** This node's own replicas by cluster-wide collection id (the internal port serves them). */
  localShards(): LocalShards {
    return this.#local;
  }

  // --- Sizes (sizes.ts). ---

  /** Points in the collection, counted by its shards (not exact: the metrics' figure). */
  pointCount(meta: CollectionMeta): Promise<number> {
    return this.#sizes.pointCount(meta);
  }

  /** Points and stored vectors per vector name, summed over the collection's shards. */
  collectionSize(meta: CollectionMeta): Promise<{ points: number; vectors: Record<string, number> }> {
    return this.#sizes.collectionSize(meta);
  }

  /** Background graph saves and writes not yet covered by one, summed over the collection's shards. */
  graphSaves(meta: CollectionMeta): Promise<{ saves: number; unsaved: number }> {
    return this.#sizes.graphSaves(meta);
  }

  /** Estimated in-memory bytes of the collection by kind, summed over its shards. */
  collectionMemory(meta: CollectionMeta): Promise<MemoryBytes> {
    return this.#sizes.collectionMemory(meta);
  }

  /** Each worker thread's V8 heap figures, by worker index (telemetry). */
  workerMemory(): Promise<ThreadMemory[]> {
    return this.#sizes.workerMemory();
  }

  /** Every worker's issues (GET /issues), cleared after when `clear`. */
  workerIssues(clear: boolean): Promise<IssueRecord[]> {
    return this.#sizes.workerIssues(clear);
  }

  /** Live recall per collection and kind, the workers' merged (/metrics). */
  liveRecall(): Promise<LiveRecallFigures[]> {
    return this.#sizes.liveRecall(this.list());
  }

  /** Requests each worker served, per op (metrics: which copies serve). */
  sentCounts(): { worker: number; op: string; count: number }[] {
    return this.#sizes.sentCounts();
  }

  /** Finishes background drops, saves what changed in the HNSW graphs since their last background save (a clean restart then replays nothing), stops the workers, closes LMDB. */
  async close(): Promise<void> {
    const wasReady = this.#catalog.markClosed();
    await this.#drops.settled();
    if (wasReady) {
      await Promise.allSettled(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.saveIndexes(w)));
    }
    await this.#dispatcher.close();
    await this.#log?.close().catch(() => undefined);
    await this.#db.root.close();
  }
}
