// The collection transitions: create, config update, field index add / remove, delete, and in
// cluster mode their etcd-first forms and the mirror of etcd's catalog (mirrorCollection,
// mirrorDelete). Each one writes LMDB's catalog, tells the shards' workers, and publishes the
// catalog to the coordinating workers before it answers.
//
// Invariants:
// - a create claims its name synchronously (a concurrent create of the name meets it) and undoes
//   only what is its own when it fails; a delete of the name waits for a create still opening;
// - a delete answers once the entry is out of LMDB's catalog (the name is free from then on);
//   requests on the name meet 412 only while the delete is in progress; the data goes in the
//   background (drops.ts);
// - a change never brings back a collection deleted meanwhile (replace checks the id);
// - cluster mode (issue 16, decisions 2 and 3): etcd's catalog first, this one mirrors it with
//   the cluster-wide ids, and local changes run in the one order the mirror's run in.

import type { CatalogEntry, QuiverDb } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { ShardRouter } from '../../shared/shard-router.js';
import type { CollectionConfig, CollectionMeta, FieldIndexSchema } from '../../shared/types.js';
import type { ClusterCatalog } from '../cluster/catalog-sync.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { Catalog } from './catalog.js';
import type { Drops } from './drops.js';
import type { CatalogPublisher } from './publish.js';
import type { Replicas } from './replicas.js';

export interface CollectionsOptions {
  db: QuiverDb;
  catalog: Catalog;
  replicas: Replicas;
  publisher: CatalogPublisher;
  drops: Drops;
  /** The shards' write logs (their streams are made with a collection), or null. */
  writeLog: WriteLog | null;
  /** Cluster mode: the catalog of record, etcd's (src/main/cluster/catalog-sync.ts), or null. */
  cluster: ClusterCatalog | null;
}

export class Collections {
  readonly #db: QuiverDb;
  readonly #catalog: Catalog;
  readonly #replicas: Replicas;
  readonly #router: ShardRouter;
  readonly #publisher: CatalogPublisher;
  readonly #drops: Drops;
  readonly #log: WriteLog | null;
  readonly #cluster: ClusterCatalog | null;
  /** Creates still opening their shards, by name. */
  readonly #creating = new Map<string, Promise<void>>();

  constructor(opts: CollectionsOptions) {
    this.#db = opts.db;
    this.#catalog = opts.catalog;
    this.#replicas = opts.replicas;
    this.#router = opts.replicas.router;
    this.#publisher = opts.publisher;
    this.#drops = opts.drops;
    this.#log = opts.writeLog;
    this.#cluster = opts.cluster;
  }

  async create(name: string, config: CollectionConfig): Promise<void> {
    this.#catalog.requireReady();
    if (this.#cluster !== null) return this.#createInCluster(this.#cluster, name, config);
    const existing = this.#catalog.get(name);
    if (existing?.deleting === true) throw QuiverError.beingDeleted(name);
    if (existing !== undefined) throw QuiverError.alreadyExists(`Collection already exists: ${name}`);
    // Taken from memory synchronously: two creates in flight never share an internal id.
    const id = this.#catalog.takeId();
    const entry: CatalogEntry = { id, name, config, created_at: new Date().toISOString() };
    await this.#createLocal(entry, () => this.#catalog.persistNextId());
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
        await this.#router.control(entry, (shards, secondary) => ({ op: 'openShards', meta: entry, shards, secondary }), this.#replicas.newTable(entry));
        if (this.#replicas.effectiveReplicas(entry) > 1) this.#replicas.logCopies(entry, 'created');
        await this.#publisher.publish();
      } catch (err) {
        this.#replicas.remove(id);
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

  async update(meta: CollectionMeta): Promise<void> {
    // Cluster mode: in the one order the mirror's changes run in (catalog-sync.ts).
    if (this.#cluster !== null) return this.#cluster.serialize(() => this.#update(meta));
    return this.#update(meta);
  }

  async #update(meta: CollectionMeta): Promise<void> {
    const entry: CatalogEntry = { ...meta };
    await this.#replace(entry);
    await this.#router.control(entry, () => ({ op: 'updateConfig', meta: entry }));
    await this.#replicas.resize(entry);
    await this.#publisher.publish();
  }

  /** Writes a changed entry of a live collection; never brings back one deleted meanwhile. */
  async #replace(entry: CatalogEntry): Promise<void> {
    this.#catalog.collection(entry.name);
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
    await this.#publisher.publish();
  }

  /**
   * Takes the collection out of the catalog and answers once that is on disk: from then on the
   * name is free (Qdrant clients' recreateCollection deletes and creates at once). Its data is
   * reclaimed in the background under its internal id, which a new collection of the same name
   * never shares. Requests on the name meet 412 only while this call is in progress.
   * False if there is no such name.
   */
  async delete(name: string): Promise<boolean> {
    this.#catalog.requireReady();
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
      await this.#publisher.publish();
      await this.#drops.retire(name, entry);
    } catch (err) {
      this.#catalog.set(name, entry);
      await this.#publisher.publish();
      throw err;
    }
    this.#catalog.delete(name);
    // Requests stop reaching the copies now; the drop reaches every one of them.
    const table = this.#replicas.remove(entry.id);
    await this.#publisher.publish();
    this.#drops.start(entry, table);
    return true;
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
    await this.#publisher.publish();
  }

  /** Cluster mode: removes the local collection `name` if it is collection `id`. */
  async mirrorDelete(name: string, id: number): Promise<void> {
    if (this.#catalog.get(name)?.id !== id) return;
    await this.#deleteLocal(name);
  }
}
