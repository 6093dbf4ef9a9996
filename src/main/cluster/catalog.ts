// The collection catalog in etcd (CLUSTER.md sections 3 and 4): /quiver/catalog/<name> holds a
// collection's config, its cluster-wide id (which names its streams) and a deleting mark.
// Invariants: a name is created only by a create-if-absent transaction, so two nodes creating the
// same name at once get one winner and one AlreadyExists; a delete first marks the entry deleting
// (conditioned on the revision it read), then removes it, so a name is free again only once its
// entry is gone. Not wired into the engine yet: the mirror is what each node will apply to its
// local LMDB catalog (which becomes a cache).

import { randomUUID } from 'node:crypto';
import type { IKeyValue, Namespace, Watcher } from 'etcd3';

export interface CatalogEntry {
  /** Cluster-wide collection id: streams are QV_<id>_<shard>. */
  id: string;
  /** The collection's creation request, as the service layer normalised it. */
  config: unknown;
  deleting: boolean;
}

export type CreateResult = { created: true; entry: CatalogEntry; revision: string } | { created: false; existing: CatalogEntry };

const key = (name: string): string => `catalog/${name}`;

function parse(kv: IKeyValue): CatalogEntry {
  return JSON.parse(kv.value.toString('utf8')) as CatalogEntry;
}

/** Creates the entry unless the name exists; either way one round trip. */
export async function createIfAbsent(ns: Namespace, name: string, config: unknown): Promise<CreateResult> {
  const entry: CatalogEntry = { id: randomUUID().replaceAll('-', ''), config, deleting: false };
  const r = await ns
    .if(key(name), 'Create', '==', 0)
    .then(ns.put(key(name)).value(JSON.stringify(entry)))
    .else(ns.get(key(name)))
    .commit();
  if (r.succeeded) return { created: true, entry, revision: r.header.revision };
  const kv = r.responses[0]?.response_range?.kvs[0];
  if (kv === undefined) throw new Error(`catalog entry ${name} vanished during its create`);
  return { created: false, existing: parse(kv) };
}

/** Marks the entry deleting; false when there is none (or it changed since read: retry). */
export async function markDeleting(ns: Namespace, name: string): Promise<boolean> {
  const got = await ns.get(key(name)).exec();
  const kv = got.kvs[0];
  if (kv === undefined) return false;
  const entry = { ...parse(kv), deleting: true };
  const r = await ns.if(key(name), 'Mod', '==', kv.mod_revision).then(ns.put(key(name)).value(JSON.stringify(entry))).commit();
  return r.succeeded;
}

/** Removes the entry of a collection marked deleting, only if it is still that collection. */
export async function removeEntry(ns: Namespace, name: string, id: string): Promise<boolean> {
  const got = await ns.get(key(name)).exec();
  const kv = got.kvs[0];
  if (kv === undefined || parse(kv).id !== id) return false;
  const r = await ns.if(key(name), 'Mod', '==', kv.mod_revision).then(ns.delete().key(key(name))).commit();
  return r.succeeded;
}

export interface CatalogEvents {
  put(name: string, entry: CatalogEntry): void;
  delete(name: string): void;
}

/** Mirrors the catalog: every entry once (put), then each change, with no gap between the two. */
export async function mirrorCatalog(ns: Namespace, on: CatalogEvents): Promise<Watcher> {
  const all = await ns.getAll().prefix('catalog/').exec();
  const nameOf = (k: Buffer): string => {
    const s = k.toString('utf8');
    return s.slice(s.indexOf('catalog/') + 'catalog/'.length);
  };
  for (const kv of all.kvs) on.put(nameOf(kv.key), parse(kv));
  const watcher = await ns.watch().prefix('catalog/').startRevision((BigInt(all.header.revision) + 1n).toString()).create();
  watcher.on('put', (kv) => on.put(nameOf(kv.key), parse(kv)));
  watcher.on('delete', (kv) => on.delete(nameOf(kv.key)));
  return watcher;
}
