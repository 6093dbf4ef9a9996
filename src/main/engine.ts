// The engine's lifecycle owner on the main thread: the collection catalog (mirrored from LMDB),
// readiness (412 until every worker has loaded its shards), operation ids, and the collection
// create / update / delete transitions. Point traffic goes through the ShardRouter, which the
// engine keeps to itself: services reach shards through call / fanOut / partition, metrics ask
// for sizes, and nothing else sees the router.

import { liveCollection } from '../shared/catalog.js';
import type { CatalogEntry, QuiverDb } from '../shared/db.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../shared/errors.js';
import { OpIdCounter } from '../shared/op-ids.js';
import type { CatalogSnapshot, HnswBuild, ResultOf } from '../shared/protocol.js';
import type { CollectionConfig, CollectionMeta, FieldIndexSchema, PointId } from '../shared/types.js';
import type { PointEngine } from './point-engine.js';
import type { ShardDispatcher } from './router/dispatcher.js';
import { ShardRouter, type ShardCall, type ShardOp } from './router/shard-router.js';

const NEXT_COLLECTION_ID = 'next_collection_id';

const DROP_BATCH = 10_000;

export interface EngineOptions {
  /** The operation id counter, shared with the coordinating workers. */
  opIds?: OpIdCounter;
  /**
   * Receives the catalog after each change, and is awaited before the change answers (the
   * coordinating workers' mirror: src/workers/coordinator/catalog-mirror.ts).
   */
  publishCatalog?: (snapshot: CatalogSnapshot) => Promise<void>;
}

export class Engine implements PointEngine {
  readonly #router: ShardRouter;
  readonly #db: QuiverDb;
  readonly #dispatcher: ShardDispatcher;
  readonly #catalog = new Map<string, CatalogEntry>();
  readonly #opIds: OpIdCounter;
  readonly #publish: ((snapshot: CatalogSnapshot) => Promise<void>) | null;
  #catalogVersion = 0;
  readonly #drops = new Set<Promise<void>>();
  readonly #creating = new Map<string, Promise<void>>();
  #nextId = 1;
  #ready = false;
  /** Where a background task's failure is reported (the server sets its logger here). */
  onBackgroundError: (err: unknown, what: string) => void = () => undefined;
  #hnswBuild: HnswBuild | null = null;

  constructor(db: QuiverDb, dispatcher: ShardDispatcher, opts: EngineOptions = {}) {
    this.#db = db;
    this.#dispatcher = dispatcher;
    this.#router = new ShardRouter(dispatcher);
    this.#opIds = opts.opIds ?? new OpIdCounter();
    this.#publish = opts.publishCatalog ?? null;
  }

  /** Pushes the catalog as it is now to the coordinating workers, if any; resolves when they have it. */
  async #publishCatalog(): Promise<void> {
    if (this.#publish === null) return;
    const collections: CatalogSnapshot['collections'] = {};
    for (const [name, entry] of this.#catalog) collections[name] = { entry };
    await this.#publish({ version: ++this.#catalogVersion, ready: this.#ready, collections });
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** The hnswlib-node build the workers loaded (every worker decides alike), once they answered. */
  get hnswBuild(): HnswBuild | null {
    return this.#hnswBuild;
  }

  /** Waits for every worker to load its shards, then opens for traffic. Resumes unfinished drops. */
  async start(): Promise<{ restoredShards: number; rebuiltShards: number; hnswBuild: HnswBuild | null }> {
    // Data dirs from before the drops database kept a deleted collection in the catalog, marked.
    for (const { key, value } of this.#db.catalog.getRange()) {
      if (value.deleting === true) await this.#retire(key, value);
      else this.#catalog.set(key, value);
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
    this.#ready = true;
    await this.#publishCatalog();
    return {
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
    return this.#router.call(meta, shard, req, transfer);
  }

  /** The same request to every shard of the collection, results in shard order. */
  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.#router.fanOut(meta, req);
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

  /** From the counter every thread shares: grows per collection, though not by exactly 1. */
  nextOpId(_collection: number): number {
    return this.#opIds.next();
  }

  async createCollection(name: string, config: CollectionConfig): Promise<void> {
    this.requireReady();
    const existing = this.#catalog.get(name);
    if (existing?.deleting === true) throw QuiverError.beingDeleted(name);
    if (existing !== undefined) throw QuiverError.alreadyExists(`Collection already exists: ${name}`);
    // Taken from memory synchronously: two creates in flight never share an internal id.
    const id = this.#nextId++;
    const entry: CatalogEntry = { id, name, config, created_at: new Date().toISOString() };
    // Claim the name synchronously, so a concurrent create of the same name meets it.
    this.#catalog.set(name, entry);
    const created = (async () => {
      try {
        void this.#db.meta.put(NEXT_COLLECTION_ID, this.#nextId);
        await this.#db.catalog.put(name, entry);
        await this.#db.catalog.flushed;
        await this.#router.control(entry, (shards) => ({ op: 'openShards', meta: entry, shards }));
        await this.#publishCatalog();
      } catch (err) {
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

  async updateCollection(meta: CollectionMeta): Promise<void> {
    const entry: CatalogEntry = { ...meta };
    await this.#replace(entry);
    await this.#router.control(entry, () => ({ op: 'updateConfig', meta: entry }));
    await this.#publishCatalog();
  }

  /** Writes a changed entry of a live collection; never brings back one deleted meanwhile. */
  async #replace(entry: CatalogEntry): Promise<void> {
    this.collection(entry.name);
    if (this.#catalog.get(entry.name)?.id !== entry.id) throw QuiverError.collectionNotFound(entry.name);
    this.#catalog.set(entry.name, entry);
    await this.#db.catalog.put(entry.name, entry);
  }

  /** Adds (schema) or removes (null) the field index on `key`, in the catalog and in every shard. */
  async setIndex(meta: CollectionMeta, key: string, schema: FieldIndexSchema | null): Promise<void> {
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
    await this.#publishCatalog();
    this.#startDrop(entry);
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

  #startDrop(entry: CatalogEntry): void {
    // A drop that fails keeps its record in the drops database, and the next start resumes it.
    const p = this.#drop(entry)
      .catch((err: unknown) => this.onBackgroundError(err, `dropping the data of deleted collection ${entry.name} (id ${entry.id})`))
      .finally(() => this.#drops.delete(p));
    this.#drops.add(p);
  }

  async #drop(entry: CatalogEntry): Promise<void> {
    await this.#router.control(entry, (shards) => ({ op: 'dropShards', collection: entry.id, shards }));
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

  /** Finishes background drops, saves the HNSW graphs (a clean restart then skips rebuilding them), stops the workers, closes LMDB. */
  async close(): Promise<void> {
    const wasReady = this.#ready;
    this.#ready = false;
    await Promise.allSettled([...this.#drops]);
    if (wasReady) {
      await Promise.allSettled(Array.from({ length: this.#dispatcher.workerCount }, (_, w) => this.#router.saveIndexes(w)));
    }
    await this.#dispatcher.close();
    await this.#db.root.close();
  }
}
