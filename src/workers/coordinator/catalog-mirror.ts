// A coordinating worker's copy of the main thread's catalog. The main thread pushes the whole
// catalog after every change and waits for every worker to take it before the change answers,
// so a request handed off after a change sees it. Invariant: a snapshot never replaces a newer
// one (pushes to a replaced thread may cross), and lookups answer exactly as Engine.collection.

import { liveCollection } from '../../shared/catalog.js';
import type { CatalogSnapshot } from '../../shared/protocol.js';
import type { CollectionMeta } from '../../shared/types.js';

export class CatalogMirror {
  #snapshot: CatalogSnapshot = { version: 0, ready: false, collections: {} };

  apply(snapshot: CatalogSnapshot): void {
    if (snapshot.version >= this.#snapshot.version) this.#snapshot = snapshot;
  }

  get ready(): boolean {
    return this.#snapshot.ready;
  }

  collection(name: string): CollectionMeta {
    // Own keys only: a collection called `constructor` must not find Object.prototype's.
    const rec = Object.hasOwn(this.#snapshot.collections, name) ? this.#snapshot.collections[name] : undefined;
    return liveCollection(this.#snapshot.ready, name, rec?.entry);
  }
}
