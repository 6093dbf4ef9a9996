// The shards one worker owns, and the dispatch of protocol requests to them.

import type { QuiverDb } from '../shared/db.js';
import { QuiverError } from '../shared/errors.js';
import { workerOf } from '../shared/placement.js';
import { PROTOCOL_VERSION, assertNever, type Op, type ResultOf, type ShardRequest } from '../shared/protocol.js';
import type { CollectionMeta } from '../shared/types.js';
import { hnswBuild } from './index/hnswlib-loader.js';
import { Shard } from './shard/shard.js';

export class ShardHost {
  readonly #worker: number;
  readonly #workerCount: number;
  readonly #db: QuiverDb;
  readonly #shards = new Map<string, Shard>();

  readonly #indexDir: string;
  #restored = 0;
  #rebuilt = 0;

  constructor(worker: number, workerCount: number, db: QuiverDb, indexDir: string) {
    this.#indexDir = indexDir;
    this.#worker = worker;
    this.#workerCount = workerCount;
    this.#db = db;
  }

  /** Opens and loads every shard of every live collection placed on this worker. */
  loadAll(): void {
    for (const { value: meta } of this.#db.catalog.getRange()) {
      if (meta.deleting === true) continue;
      for (let s = 0; s < meta.config.shard_number; s++) {
        if (workerOf(meta.id, s, this.#workerCount) !== this.#worker) continue;
        if (this.#open(meta, s).load()) this.#restored++;
        else this.#rebuilt++;
      }
    }
  }

  #open(meta: CollectionMeta, shard: number): Shard {
    const key = `${meta.id}/${shard}`;
    let s = this.#shards.get(key);
    if (s === undefined) {
      s = new Shard(meta, shard, this.#db, this.#indexDir);
      this.#shards.set(key, s);
    }
    return s;
  }

  #get(collection: number, shard: number): Shard {
    const s = this.#shards.get(`${collection}/${shard}`);
    // Every live shard is opened before its collection's create answers, and loaded before a
    // replacement thread takes work, so a missing one was dropped by a DELETE while this ran.
    if (s === undefined) throw QuiverError.notFound(`Collection not found: it was deleted while the request ran (shard ${collection}/${shard})`);
    return s;
  }

  async handle(req: ShardRequest): Promise<ResultOf<Op>> {
    switch (req.op) {
      case 'ping': {
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
          hnswBuild: hnswBuild(),
        };
      }
      case 'saveIndexes': {
        // Sent at a clean shutdown, just before the thread ends. Background rebuilds stop first,
        // before any await lets one more step run: hnswlib aborts the process when the thread
        // ends during one of its calls. The graphs saved are the ones serving; one built with
        // other parameters than the configuration's is rebuilt at the next start.
        for (const s of this.#shards.values()) s.dispose();
        for (const s of this.#shards.values()) await s.saveIndexes();
        return null;
      }
      case 'openShards':
        for (const s of req.shards) this.#open(req.meta, s);
        return null;
      case 'updateConfig':
        for (const s of this.#shards.values()) if (s.collection === req.meta.id) s.updateMeta(req.meta);
        return null;
      case 'dropShards':
        // Memory only: the main thread reclaims the LMDB records once no worker serves them.
        for (const shard of req.shards) {
          this.#shards.get(`${req.collection}/${shard}`)?.dispose();
          this.#shards.delete(`${req.collection}/${shard}`);
        }
        return null;
      case 'createIndex':
        for (const shard of req.shards) this.#get(req.collection, shard).createIndex(req.key, req.schema);
        return null;
      case 'dropIndex':
        for (const shard of req.shards) this.#get(req.collection, shard).dropIndex(req.key);
        return null;
      case 'payload':
        return { applied: await this.#get(req.collection, req.shard).updatePayload(req.change, req.ids, req.filter, req.opId, req.wait) };
      case 'upsert':
        return this.#get(req.collection, req.shard).upsert(req.batch, req.opId, req.wait, req.condition);
      case 'updateVectors':
        return { applied: await this.#get(req.collection, req.shard).updateVectors(req.batch, req.opId, req.wait, req.condition) };
      case 'delete':
        return { deleted: await this.#get(req.collection, req.shard).delete(req.ids, req.filter, req.opId, req.wait) };
      case 'retrieve':
        return this.#get(req.collection, req.shard).retrieve(req.ids, req.withPayload, req.withVector);
      case 'search': {
        const shard = this.#get(req.collection, req.shard);
        return req.searches.map((s) => shard.search(s));
      }
      case 'count':
        return this.#get(req.collection, req.shard).count(req.filter, req.exact);
      case 'facet':
        return this.#get(req.collection, req.shard).facet(req.key, req.filter, req.top);
      case 'scroll':
        return this.#get(req.collection, req.shard).scroll(req.offset, req.limit, req.filter, req.withPayload, req.withVector);
      case 'scrollOrdered':
        return this.#get(req.collection, req.shard).scrollOrdered(req.orderBy, req.limit, req.filter, req.withPayload, req.withVector);
      case 'sample':
        return this.#get(req.collection, req.shard).sample(req.limit, req.filter, req.withPayload, req.withVector);
      case 'sparseStats':
        return this.#get(req.collection, req.shard).sparseStats(req.vector, req.terms);
      case 'deleteVectors':
        return { applied: await this.#get(req.collection, req.shard).deleteVectors(req.names, req.ids, req.filter, req.opId, req.wait) };
      case 'shardInfo':
        return this.#get(req.collection, req.shard).info(this.#worker);
      default:
        return assertNever(req);
    }
  }
}
