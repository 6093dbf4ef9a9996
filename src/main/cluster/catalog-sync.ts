// The etcd catalog mirrored into this node's Engine (decisions 2 and 3), on the main thread.
// It keeps the catalog as etcd last said it, per name with the etcd revision of what it holds
// (an entry or a tombstone), and brings the Engine's local catalog to it: collections missing
// here are created with their cluster-wide id, those gone from etcd (or being deleted there)
// are deleted here, config changes are applied. A node restarted while collections were created
// or deleted catches up from the first snapshot; the local LMDB catalog is a cache of etcd's.
//
// Invariants: every local catalog change in cluster mode runs in one chain (serialize), the
// mirror's and the Engine's own (create, delete, PATCH), so they never interleave; an event
// older than what this node already wrote itself (its own create's revision) changes nothing.
//
// A create answers once every live node has applied the catalog up to it (each reports the
// revision it applied in its status, replica-follow.ts), as Qdrant synchronizes its nodes after a
// create: a write sent to another node right after the create finds the collection there. A node
// that does not report in time (SPREAD_TIMEOUT_MS) is logged, and the create answers anyway.

import { QuiverError } from '../../shared/errors.js';
import type { CatalogEntry as LocalEntry } from '../../shared/db.js';
import type { CollectionConfig, CollectionMeta } from '../../shared/types.js';
import type { CatalogEntry } from '../../shared/cluster/catalog.js';
import type { FromEtcdThread } from '../../shared/cluster/messages.js';
import type { ClusterNode } from './node.js';

/** What the Engine asks of the etcd catalog in cluster mode (engine.ts keeps to this interface). */
export interface ClusterCatalog {
  /** Creates the entry in etcd: the local entry to open (cluster-wide id), or AlreadyExists. */
  create(name: string, config: CollectionConfig): Promise<LocalEntry>;
  /**
   * After the local create: resolves once the shards are assigned, followed here where this node
   * holds them, and every other live node has applied the create (or after SPREAD_TIMEOUT_MS).
   */
  placed(meta: CollectionMeta): Promise<void>;
  /** Marks the entry deleting in etcd: the collection id, or null when etcd has no such name. */
  markDeleting(name: string): Promise<number | null>;
  /** Removes the entry once the local delete is done: the name is free from then on. */
  removed(name: string, id: number): Promise<void>;
  /** Replaces the config in etcd; 404 when the collection is gone (or is another one now). */
  update(name: string, id: number, config: CollectionConfig): Promise<void>;
  /** Runs a local catalog change in the one order every such change runs in. */
  serialize<T>(fn: () => Promise<T>): Promise<T>;
}

/** What catalog-sync needs of the Engine (engine.ts implements it). */
export interface MirrorTarget {
  list(): CollectionMeta[];
  mirrorCollection(entry: LocalEntry): Promise<void>;
  mirrorDelete(name: string, id: number): Promise<void>;
}

type Held = { entry: CatalogEntry | null; rev: number };

/** Between two passes when one failed. */
const RETRY_MS = 1000;
/** How long a create waits for the other live nodes to apply it before it answers anyway. */
const SPREAD_TIMEOUT_MS = 10_000;

function toLocal(name: string, e: CatalogEntry): LocalEntry {
  return { id: e.id, name, config: e.config as CollectionConfig, created_at: e.created_at ?? new Date(0).toISOString() };
}

export class CatalogSync implements ClusterCatalog {
  readonly #node: ClusterNode;
  readonly #placed: (meta: CollectionMeta) => Promise<void>;
  readonly #held = new Map<string, Held>();
  #snapshot = false;
  #engine: MirrorTarget | null = null;
  #chain: Promise<unknown> = Promise.resolve();
  #scheduled = false;
  #firstSync: (() => void) | null = null;
  /** The newest catalog revision this node has heard of, and the newest applied to its Engine. */
  #heardRev = 0;
  #appliedRev = 0;
  readonly #onApplied = new Set<() => void>();
  /** The revision of each collection this node created, until its create answers. */
  readonly #createdAt = new Map<number, number>();
  /** Resolves once the first snapshot is applied to the Engine (the node's catalog caught up). */
  readonly synced: Promise<void>;

  constructor(node: ClusterNode, placed: (meta: CollectionMeta) => Promise<void>) {
    this.#node = node;
    this.#placed = placed;
    this.synced = new Promise((res) => (this.#firstSync = res));
    node.onCatalog = (m) => this.#onMessage(m);
  }

  /** From now on the mirror is applied to `engine` (once it is ready). */
  attach(engine: MirrorTarget): void {
    this.#engine = engine;
    this.#schedule();
  }

  /** The newest catalog revision applied to this node's Engine (0 before the first pass). */
  get appliedRev(): number {
    return this.#appliedRev;
  }

  /** Called after each pass that applied everything heard until it began. */
  onApplied(listener: () => void): void {
    this.#onApplied.add(listener);
  }

  #set(name: string, held: Held): void {
    if (held.rev > this.#heardRev) this.#heardRev = held.rev;
    const cur = this.#held.get(name);
    if (cur !== undefined && cur.rev > held.rev) return;
    this.#held.set(name, held);
  }

  #onMessage(m: Extract<FromEtcdThread, { type: 'catalog-snapshot' | 'catalog-put' | 'catalog-delete' }>): void {
    switch (m.type) {
      case 'catalog-snapshot': {
        if (m.rev > this.#heardRev) this.#heardRev = m.rev;
        const names = new Set(m.entries.map((e) => e.name));
        for (const [name, h] of this.#held) if (!names.has(name) && h.rev <= m.rev) this.#held.set(name, { entry: null, rev: m.rev });
        for (const e of m.entries) this.#set(e.name, { entry: e.entry, rev: e.rev });
        this.#snapshot = true;
        break;
      }
      case 'catalog-put':
        this.#set(m.name, { entry: m.entry, rev: m.rev });
        break;
      case 'catalog-delete':
        this.#set(m.name, { entry: null, rev: m.rev });
        break;
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    void this.serialize(async () => {
      this.#scheduled = false;
      await this.#apply();
    });
  }

  serialize<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.#chain.then(fn);
    this.#chain = p.catch(() => undefined);
    return p;
  }

  async #apply(): Promise<void> {
    const engine = this.#engine;
    if (engine === null || !this.#snapshot) return;
    const upTo = this.#heardRev;
    let failed = false;
    for (const local of engine.list()) {
      const h = this.#held.get(local.name);
      if (h === undefined || h.entry === null || h.entry.deleting || h.entry.id !== local.id) {
        await engine.mirrorDelete(local.name, local.id).catch((err: unknown) => {
          failed = true;
          this.#node.log.error({ err, collection: local.name }, 'cluster: local delete of a collection deleted in etcd failed; retrying');
        });
      }
    }
    for (const [name, h] of this.#held) {
      if (h.entry === null || h.entry.deleting) continue;
      await engine.mirrorCollection(toLocal(name, h.entry)).catch((err: unknown) => {
        failed = true;
        this.#node.log.error({ err, collection: name }, 'cluster: local copy of a collection from etcd failed; retrying');
      });
    }
    // A failed step is tried again (the next pass redoes whatever still differs), not left until the next change in etcd.
    if (failed) setTimeout(() => this.#schedule(), RETRY_MS).unref();
    else if (upTo > this.#appliedRev) {
      this.#appliedRev = upTo;
      for (const l of this.#onApplied) l();
    }
    this.#firstSync?.();
    this.#firstSync = null;
  }

  async create(name: string, config: CollectionConfig): Promise<LocalEntry> {
    const r = await this.#node.request({ op: 'create', name, config });
    if (r.op !== 'create') throw QuiverError.internal('etcd thread answered another request');
    if (!r.created) {
      if (r.existing.deleting) throw QuiverError.beingDeleted(name);
      throw QuiverError.alreadyExists(`Collection already exists: ${name}`);
    }
    this.#set(name, { entry: r.entry, rev: r.rev });
    this.#createdAt.set(r.entry.id, r.rev);
    return toLocal(name, r.entry);
  }

  async placed(meta: CollectionMeta): Promise<void> {
    await this.#placed(meta);
    const rev = this.#createdAt.get(meta.id);
    this.#createdAt.delete(meta.id);
    if (rev !== undefined) await this.#appliedEverywhere(meta.name, rev);
  }

  /** Resolves once every live peer reports the catalog applied up to `rev`, or after SPREAD_TIMEOUT_MS. */
  #appliedEverywhere(name: string, rev: number): Promise<void> {
    const state = this.#node.state;
    // A peer that reports no revision (a version before this report) is not waited for.
    const behind = (): number[] =>
      state
        .peers()
        .filter((p) => p.id !== state.nodeId && (state.status(p.id)?.catalog_rev ?? Number.POSITIVE_INFINITY) < rev)
        .map((p) => p.id);
    if (behind().length === 0) return Promise.resolve();
    return new Promise((res) => {
      const off = state.onChange(() => {
        if (behind().length > 0) return;
        clearTimeout(timer);
        off();
        res();
      });
      const timer = setTimeout(() => {
        off();
        this.#node.log.warn({ collection: name, rev, nodes: behind() }, 'cluster: collection created, but not every node has it yet; answering anyway');
        res();
      }, SPREAD_TIMEOUT_MS);
    });
  }

  async markDeleting(name: string): Promise<number | null> {
    const r = await this.#node.request({ op: 'markDeleting', name });
    if (r.op !== 'markDeleting') throw QuiverError.internal('etcd thread answered another request');
    if (r.entry === null) return null;
    this.#set(name, { entry: r.entry, rev: r.rev });
    return r.entry.id;
  }

  async removed(name: string, id: number): Promise<void> {
    this.#createdAt.delete(id);
    const r = await this.#node.request({ op: 'remove', name, id });
    if (r.op === 'remove' && r.rev !== null) this.#set(name, { entry: null, rev: r.rev });
  }

  async update(name: string, id: number, config: CollectionConfig): Promise<void> {
    const r = await this.#node.request({ op: 'update', name, id, config });
    if (r.op !== 'update' || r.rev === null) throw QuiverError.collectionNotFound(name);
    const cur = this.#held.get(name)?.entry;
    if (cur !== undefined && cur !== null && cur.id === id) this.#set(name, { entry: { ...cur, config }, rev: r.rev });
  }
}
