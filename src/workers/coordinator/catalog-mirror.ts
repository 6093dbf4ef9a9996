// A coordinating worker's copy of the main thread's catalog. The main thread pushes the whole
// catalog after every change and waits for every worker to take it before the change answers,
// so a request handed off after a change sees it. Invariant: a snapshot never replaces a newer
// one (pushes to a replaced thread may cross), and lookups answer exactly as Engine.collection.
// It also holds the replica table of each collection with copies: which copies this worker's
// coordinator may read (the Engine publishes a copy Active only once it holds every answered write).

import { liveCollection } from '../../shared/catalog.js';
import type { ReplicaTable } from '../../shared/placement.js';
import type { CatalogRecord, CatalogSnapshot } from '../../shared/coordination.js';
import type { CollectionMeta } from '../../shared/types.js';

export class CatalogMirror {
  #snapshot: CatalogSnapshot = { version: 0, ready: false, collections: {} };

  apply(snapshot: CatalogSnapshot): void {
    if (snapshot.version >= this.#snapshot.version) this.#snapshot = snapshot;
  }

  get ready(): boolean {
    return this.#snapshot.ready;
  }

  #record(name: string): CatalogRecord | undefined {
    // Own keys only: a collection called `constructor` must not find Object.prototype's.
    return Object.hasOwn(this.#snapshot.collections, name) ? this.#snapshot.collections[name] : undefined;
  }

  collection(name: string): CollectionMeta {
    return liveCollection(this.#snapshot.ready, name, this.#record(name)?.entry);
  }

  /** A live collection by its cluster-wide id (not being deleted), or undefined. */
  byId(id: number): CollectionMeta | undefined {
    for (const rec of Object.values(this.#snapshot.collections)) if (rec.entry.id === id && rec.entry.deleting !== true) return rec.entry;
    return undefined;
  }

  /** The collection's replica table, when it keeps copies (undefined: one copy per shard, its primary). */
  replicas(meta: CollectionMeta): ReplicaTable | undefined {
    const rec = this.#record(meta.name);
    // A collection of the same name created since the request looked it up is not this one.
    return rec?.entry.id === meta.id ? rec.replicas : undefined;
  }
}
