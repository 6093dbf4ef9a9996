// The collection catalog in etcd (docs/cluster.md sections 3 and 4): /quiver/catalog/<name> holds a
// collection's config, its cluster-wide id (which names its streams: QV_<id>_<shard>) and a
// deleting mark; /quiver/next-collection-id is the id counter.
// Invariants: a name is created only by a transaction that is both create-if-absent on the name
// and compare-and-swap on the counter, so two nodes creating the same name at once get one winner
// and one AlreadyExists, and two creates of different names never share an id (the loser of the
// counter race retries); ids are never reused. A delete first marks the entry deleting
// (conditioned on the revision it read), then removes it, so a name is free again only once its
// entry is gone. Every node mirrors the catalog into its Engine (catalog-sync.ts): the local LMDB
// catalog is a cache of this one.

import type { IKeyValue, Namespace, Watcher } from 'etcd3';
import { PrefixMirror } from './prefix-mirror.js';

export interface CatalogEntry {
  /** Cluster-wide collection id: streams are QV_<id>_<shard>. */
  id: number;
  /** The collection's creation request, as the service layer normalised it (CollectionConfig). */
  config: unknown;
  deleting: boolean;
  /** When the entry was created (ISO), kept so every node's local entry reports the same time. */
  created_at?: string;
  /** When it was marked deleting (ms since the epoch): the controller removes entries left marked by a node that died mid-delete. */
  deleting_since?: number;
}

export type CreateResult = { created: true; entry: CatalogEntry; revision: string } | { created: false; existing: CatalogEntry };

export const COUNTER_KEY = 'next-collection-id';
export const catalogKey = (name: string): string => `catalog/${name}`;

export function parseEntry(kv: IKeyValue): CatalogEntry {
  return JSON.parse(kv.value.toString('utf8')) as CatalogEntry;
}

/**
 * Creates the entry unless the name exists, with the next id of the counter; retries while only
 * the counter moved (another name was created meanwhile).
 */
export async function createIfAbsent(ns: Namespace, name: string, config: unknown): Promise<CreateResult> {
  for (;;) {
    const counter = (await ns.get(COUNTER_KEY).exec()).kvs[0];
    const id = counter === undefined ? 1 : Number(counter.value.toString('utf8'));
    const entry: CatalogEntry = { id, config, deleting: false, created_at: new Date().toISOString() };
    const cmp = ns.if(catalogKey(name), 'Create', '==', 0);
    const both = counter === undefined ? cmp.and(COUNTER_KEY, 'Create', '==', 0) : cmp.and(COUNTER_KEY, 'Mod', '==', counter.mod_revision);
    const r = await both
      .then(ns.put(catalogKey(name)).value(JSON.stringify(entry)), ns.put(COUNTER_KEY).value(String(id + 1)))
      .else(ns.get(catalogKey(name)))
      .commit();
    if (r.succeeded) return { created: true, entry, revision: r.header.revision };
    const kv = r.responses[0]?.response_range?.kvs[0];
    if (kv !== undefined) return { created: false, existing: parseEntry(kv) };
    // The name is free but the counter moved: take the next id.
  }
}

/** Marks the entry deleting; false when there is none (or it changed since read: retry). */
export async function markDeleting(ns: Namespace, name: string): Promise<boolean> {
  const got = await ns.get(catalogKey(name)).exec();
  const kv = got.kvs[0];
  if (kv === undefined) return false;
  const entry: CatalogEntry = { ...parseEntry(kv), deleting: true, deleting_since: Date.now() };
  const r = await ns.if(catalogKey(name), 'Mod', '==', kv.mod_revision).then(ns.put(catalogKey(name)).value(JSON.stringify(entry))).commit();
  return r.succeeded;
}

/** Removes the entry of a collection marked deleting, only if it is still that collection. */
export async function removeEntry(ns: Namespace, name: string, id: number): Promise<boolean> {
  return (await removeEntryAt(ns, name, id)) !== null;
}

/** removeEntry, answering the removal's revision (null: nothing removed). */
export async function removeEntryAt(ns: Namespace, name: string, id: number): Promise<string | null> {
  const got = await ns.get(catalogKey(name)).exec();
  const kv = got.kvs[0];
  if (kv === undefined || parseEntry(kv).id !== id) return null;
  const r = await ns.if(catalogKey(name), 'Mod', '==', kv.mod_revision).then(ns.delete().key(catalogKey(name))).commit();
  return r.succeeded ? r.header.revision : null;
}

/**
 * Replaces the config of collection `id` (a PATCH, a field index): false when the name is gone,
 * is another collection now, or is being deleted; else the commit's revision. Retries while only a concurrent config change
 * raced it (last writer wins, as on one node).
 */
export async function updateConfig(ns: Namespace, name: string, id: number, config: unknown): Promise<string | null> {
  for (;;) {
    const kv = (await ns.get(catalogKey(name)).exec()).kvs[0];
    if (kv === undefined) return null;
    const cur = parseEntry(kv);
    if (cur.id !== id || cur.deleting) return null;
    const r = await ns
      .if(catalogKey(name), 'Mod', '==', kv.mod_revision)
      .then(ns.put(catalogKey(name)).value(JSON.stringify({ ...cur, config })))
      .commit();
    if (r.succeeded) return r.header.revision;
  }
}

export interface CatalogEvents {
  put(name: string, entry: CatalogEntry): void;
  delete(name: string): void;
}

export const nameOfCatalogKey = (k: Buffer): string => {
  const s = k.toString('utf8');
  return s.slice(s.indexOf('catalog/') + 'catalog/'.length);
};

/**
 * Mirrors the catalog: every entry once (put), then each change, with no gap between the two. One
 * try, not retried (a failure is thrown); the watcher is the caller's to cancel.
 */
export async function mirrorCatalog(ns: Namespace, on: CatalogEvents): Promise<Watcher> {
  const mirror = new PrefixMirror(ns, [
    {
      prefix: 'catalog/',
      snapshot: (all) => {
        for (const kv of all.kvs) on.put(nameOfCatalogKey(kv.key), parseEntry(kv));
      },
      watching: (watcher) => {
        watcher.on('put', (kv) => on.put(nameOfCatalogKey(kv.key), parseEntry(kv)));
        watcher.on('delete', (kv) => on.delete(nameOfCatalogKey(kv.key)));
      },
    },
  ]);
  const [watcher] = await mirror.once();
  return watcher!;
}

/**
 * Marks the entry deleting, retrying while it changes under us; the entry marked and the mark's
 * revision, or null when the name has no entry.
 */
export async function markDeletingEntry(ns: Namespace, name: string): Promise<{ entry: CatalogEntry; revision: string } | null> {
  for (;;) {
    const kv = (await ns.get(catalogKey(name)).exec()).kvs[0];
    if (kv === undefined) return null;
    const cur = parseEntry(kv);
    const entry: CatalogEntry = { ...cur, deleting: true, deleting_since: cur.deleting_since ?? Date.now() };
    const r = await ns.if(catalogKey(name), 'Mod', '==', kv.mod_revision).then(ns.put(catalogKey(name)).value(JSON.stringify(entry))).commit();
    if (r.succeeded) return { entry, revision: r.header.revision };
  }
}
