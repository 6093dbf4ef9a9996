// The collection catalog on the main thread: names to entries (mirrored from LMDB's catalog
// database), readiness (412 until every worker has loaded its shards) and the internal ids new
// collections take. The transitions that change it are in collections.ts; this holds the state
// they share and the lookups every request makes.
//
// Invariants:
// - an entry marked `deleting` is in the map only while its delete is in progress: lookups by
//   name answer 412 for it, lookups by id skip it;
// - ids are handed out synchronously from memory (two creates in flight never share one), and
//   start past every id the catalog, the drops database and the persisted counter hold.

import { liveCollection } from '../../shared/catalog.js';
import type { CatalogEntry, QuiverDb } from '../../shared/db.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import type { CollectionMeta } from '../../shared/types.js';

/** The LMDB meta key the next collection id is persisted under. */
const NEXT_COLLECTION_ID = 'next_collection_id';

/** The live collections by name and by id, as the point engines and the replicas read them. */
export interface LiveCollections {
  requireReady(): void;
  /** A live collection by name: 404 if unknown, 412 while it is being deleted. */
  collection(name: string): CollectionMeta;
  readonly ready: boolean;
  /** The collection with cluster-wide id `id`, unless unknown here or being deleted. */
  byId(id: number): CatalogEntry | undefined;
}

export class Catalog implements LiveCollections {
  readonly #db: QuiverDb;
  readonly #entries = new Map<string, CatalogEntry>();
  #nextId = 1;
  #ready = false;

  constructor(db: QuiverDb) {
    this.#db = db;
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** Opens for traffic (every worker has loaded its shards). */
  markReady(): void {
    this.#ready = true;
  }

  /** Stops taking traffic (closing); answers whether it was open. */
  markClosed(): boolean {
    const was = this.#ready;
    this.#ready = false;
    return was;
  }

  requireReady(): void {
    if (!this.#ready) throw QuiverError.precondition(ENGINE_NOT_INITIALIZED);
  }

  collection(name: string): CollectionMeta {
    return liveCollection(this.#ready, name, this.#entries.get(name));
  }

  exists(name: string): boolean {
    this.requireReady();
    const entry = this.#entries.get(name);
    if (entry?.deleting === true) throw QuiverError.beingDeleted(name);
    return entry !== undefined;
  }

  list(): CollectionMeta[] {
    this.requireReady();
    return [...this.#entries.values()].filter((e) => e.deleting !== true);
  }

  byId(id: number): CatalogEntry | undefined {
    for (const e of this.#entries.values()) if (e.id === id && e.deleting !== true) return e;
    return undefined;
  }

  /** The entry under `name`, deleting or not. */
  get(name: string): CatalogEntry | undefined {
    return this.#entries.get(name);
  }

  set(name: string, entry: CatalogEntry): void {
    this.#entries.set(name, entry);
  }

  delete(name: string): void {
    this.#entries.delete(name);
  }

  /** Every entry, those being deleted included. */
  values(): IterableIterator<CatalogEntry> {
    return this.#entries.values();
  }

  entries(): IterableIterator<[string, CatalogEntry]> {
    return this.#entries.entries();
  }

  /** Sets the next id past every id the catalog and the drops hold, whatever the counter says. */
  seedIds(): void {
    let next = this.#db.meta.get(NEXT_COLLECTION_ID) ?? 1;
    for (const e of this.#entries.values()) next = Math.max(next, e.id + 1);
    for (const { key } of this.#db.drops.getRange()) next = Math.max(next, key + 1);
    this.#nextId = next;
  }

  /** Takes the next id, synchronously: two creates in flight never share an internal id. */
  takeId(): number {
    return this.#nextId++;
  }

  /** Writes the id counter to LMDB (in the create's own transaction order). */
  persistNextId(): void {
    void this.#db.meta.put(NEXT_COLLECTION_ID, this.#nextId);
  }
}
