// The etcd side of shard snapshots (cluster mode, docs/cluster.md section 7): the record of each
// shard's newest snapshot, under /quiver/snapshots/<collectionId>/<shard> as {seq, object, bytes,
// at}, read and written by ShardSnapshots (snapshots.ts), which re-exports what this file exports.
//
// Invariants:
// - The record only moves forward: advance() is a compare-and-swap on its revision, and a record
//   at or past a snapshot's seq keeps its place.
// - deleted() reads the catalog's id counter before its entries, so a collection created meanwhile
//   is never taken for a deleted one.
//
// etcd: a plain client of this thread (not the etcd thread's): its gets and puts are rare (one per
// snapshot and per replica start) and need no lease, so a busy main loop delays nothing that can
// expire; a message protocol to the etcd thread for them would add code and nothing else.

import { Etcd3, type Namespace } from 'etcd3';

/** /quiver/snapshots/<collectionId>/<shard>: the newest snapshot of a shard. */
export interface SnapshotRecord {
  /** The shard's applied_seq the snapshot holds: the log's entries up to here. */
  seq: number;
  /** Its name in the QV_SNAPSHOTS object store. */
  object: string;
  bytes: number;
  /** When it was recorded (ISO 8601). */
  at: string;
}

/** Where the records live (etcd; an interface so that tests can count or fake them). */
export interface SnapshotPointers {
  get(collection: number, shard: number): Promise<SnapshotRecord | null>;
  /** Records `rec` unless one at or past its seq is there; answers the record in place afterwards. */
  advance(collection: number, shard: number, rec: SnapshotRecord): Promise<SnapshotRecord>;
  /** Removes every record of a collection (deleted). */
  drop(collection: number): Promise<void>;
  /** The collection ids that have records. */
  recorded(): Promise<number[]>;
  /**
   * Which collection ids name a collection deleted for good: below the catalog's id counter (ids
   * are never reused) and without a catalog entry. The counter is read first, so a collection
   * created meanwhile is never taken for a deleted one.
   */
  deleted(): Promise<(id: number) => boolean>;
  close(): void;
}

const pointerKey = (collection: number, shard: number): string => `snapshots/${collection}/${shard}`;

/** The records in etcd, under the namespace /quiver/. */
export class EtcdSnapshotPointers implements SnapshotPointers {
  readonly #client: Etcd3;
  readonly #ns: Namespace;

  constructor(endpoints: string[]) {
    this.#client = new Etcd3({ hosts: endpoints.map((e) => (/^https?:\/\//.test(e) ? e : `http://${e}`)), dialTimeout: 5000 });
    this.#ns = this.#client.namespace('/quiver/');
  }

  async get(collection: number, shard: number): Promise<SnapshotRecord | null> {
    const v = await this.#ns.get(pointerKey(collection, shard)).string();
    return v === null ? null : (JSON.parse(v) as SnapshotRecord);
  }

  async advance(collection: number, shard: number, rec: SnapshotRecord): Promise<SnapshotRecord> {
    const key = pointerKey(collection, shard);
    for (;;) {
      const kv = (await this.#ns.get(key).exec()).kvs[0];
      if (kv !== undefined) {
        const cur = JSON.parse(kv.value.toString('utf8')) as SnapshotRecord;
        if (cur.seq >= rec.seq) return cur;
      }
      const cond = kv === undefined ? this.#ns.if(key, 'Create', '==', 0) : this.#ns.if(key, 'Mod', '==', kv.mod_revision);
      if ((await cond.then(this.#ns.put(key).value(JSON.stringify(rec))).commit()).succeeded) return rec;
    }
  }

  async drop(collection: number): Promise<void> {
    await this.#ns.delete().prefix(`snapshots/${collection}/`).exec();
  }

  async recorded(): Promise<number[]> {
    const keys = await this.#ns.getAll().prefix('snapshots/').keys();
    return [...new Set(keys.map((k) => Number(k.split('/')[1])).filter((id) => Number.isInteger(id)))];
  }

  async deleted(): Promise<(id: number) => boolean> {
    // The catalog's keys (C1's catalog.ts): next-collection-id, then catalog/<name> {id, ...}.
    const next = Number((await this.#ns.get('next-collection-id').string()) ?? '1');
    const live = new Set<number>();
    for (const v of Object.values(await this.#ns.getAll().prefix('catalog/').strings())) live.add((JSON.parse(v) as { id: number }).id);
    return (id) => id < next && !live.has(id);
  }

  close(): void {
    this.#client.close();
  }
}
