// The one rule for looking a collection up by name, shared by the main thread's Engine and the
// coordinating workers' catalog mirror, so both answer alike: 412 before the engine is ready,
// 404 for an unknown name, 412 while the collection's DELETE is in progress.

import type { CatalogEntry } from './db.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from './errors.js';

export function liveCollection(ready: boolean, name: string, entry: CatalogEntry | undefined): CatalogEntry {
  if (!ready) throw QuiverError.precondition(ENGINE_NOT_INITIALIZED);
  if (entry === undefined) throw QuiverError.collectionNotFound(name);
  if (entry.deleting === true) throw QuiverError.beingDeleted(name);
  return entry;
}
