// The reclaiming of deleted collections' data, in the background. A delete moves the catalog
// entry to LMDB's drops database in one durable transaction (retire) and answers; the drop then
// tells every copy's worker to drop its shards, deletes the write log's streams (cluster mode) and
// the collection's points in LMDB, in batches, under its internal id (never shared by a new
// collection of the same name).
//
// Invariants: a drop's record leaves the drops database only once its data is gone, so a drop
// that fails (or is cut by a stop) is resumed at the next start; close() waits for the drops in
// flight.

import type { CatalogEntry, QuiverDb } from '../../shared/db.js';
import type { ReplicaTable } from '../../shared/placement.js';
import type { ShardRouter } from '../../shared/shard-router.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { EngineEvents } from './events.js';

const DROP_BATCH = 10_000;

export class Drops {
  readonly #db: QuiverDb;
  readonly #router: ShardRouter;
  readonly #log: WriteLog | null;
  readonly #events: EngineEvents;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(db: QuiverDb, router: ShardRouter, log: WriteLog | null, events: EngineEvents) {
    this.#db = db;
    this.#router = router;
    this.#log = log;
    this.#events = events;
  }

  /** Moves a catalog entry to the drops database in one durable transaction. */
  async retire(name: string, entry: CatalogEntry): Promise<void> {
    const { deleting: _, ...dropped } = entry;
    await this.#db.root.transaction(() => {
      void this.#db.catalog.remove(name);
      void this.#db.drops.put(entry.id, dropped);
    });
    await this.#db.root.flushed;
  }

  /** Starts the drop of a retired entry in the background (`table`: its copies when it was deleted). */
  start(entry: CatalogEntry, table?: ReplicaTable): void {
    // A drop that fails keeps its record in the drops database, and the next start resumes it.
    const p = this.#drop(entry, table)
      .catch((err: unknown) => this.#events.backgroundError(err, `dropping the data of deleted collection ${entry.name} (id ${entry.id})`))
      .finally(() => this.#inFlight.delete(p));
    this.#inFlight.add(p);
  }

  /** Resumes the drops recorded in the drops database (at start). */
  resume(): void {
    for (const { value } of this.#db.drops.getRange()) this.start(value);
  }

  /** Resolves once every drop in flight has ended, failed or not. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
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
}
