// The catalog as the coordinating workers see it (their mirror: src/workers/coordinator/
// catalog-mirror.ts): every entry, with its replica table when the collection keeps copies, and
// the readiness flag, under a version that grows with each push.
//
// Invariants: a push resolves only once the workers have it (a change answers after that), and a
// copy named in `unread` is published Dead (out of the workers' reads) whatever its state here:
// the way a copy about to be dropped leaves reads before this thread stops writing it.

import type { CatalogSnapshot } from '../../shared/coordination.js';
import type { ReplicaTable, ShardCopy } from '../../shared/placement.js';
import type { Catalog } from './catalog.js';

export class CatalogPublisher {
  readonly #publish: ((snapshot: CatalogSnapshot) => Promise<void>) | null;
  readonly #catalog: Catalog;
  readonly #tables: ReadonlyMap<number, ReplicaTable>;
  #version = 0;

  constructor(publish: ((snapshot: CatalogSnapshot) => Promise<void>) | null, catalog: Catalog, tables: ReadonlyMap<number, ReplicaTable>) {
    this.#publish = publish;
    this.#catalog = catalog;
    this.#tables = tables;
  }

  /**
   * Pushes the catalog as it is now to the coordinating workers, if any; resolves when they have
   * it. `unread` copies are published Dead (out of the workers' reads) whatever their state here.
   */
  async publish(unread: ReadonlySet<ShardCopy> = new Set()): Promise<void> {
    if (this.#publish === null) return;
    const collections: CatalogSnapshot['collections'] = {};
    for (const [name, entry] of this.#catalog.entries()) {
      const table = this.#tables.get(entry.id);
      if (table === undefined || (table.shards[0]?.length ?? 1) <= 1) {
        collections[name] = { entry };
        continue;
      }
      const shards = table.shards.map((copies) => copies.map((c) => ({ worker: c.worker, state: unread.has(c) ? ('Dead' as const) : c.state })));
      collections[name] = { entry, replicas: { collection: table.collection, shards } };
    }
    await this.#publish({ version: ++this.#version, ready: this.#catalog.ready, collections });
  }
}
