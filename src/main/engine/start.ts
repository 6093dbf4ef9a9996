// The engine's start: the catalog read from LMDB (entries left marked `deleting` by an older
// version are retired to the drops database), a replica table per collection with every copy
// Active (each worker loads its copies before it answers the ping), operation ids seeded past
// every version the workers hold, collection ids past every id in use, unfinished drops resumed;
// then what the start-up log lines report, per collection and per worker.
//
// Invariant: nothing here opens the engine for traffic; the Engine marks it ready once this has
// answered (engine.ts), so no request meets a half-loaded catalog.

import type { QuiverDb } from '../../shared/db.js';
import type { OpIdCounter } from '../../shared/op-ids.js';
import type { PingResult, ShardLoadPhases } from '../../shared/protocol.js';
import type { StartupMark } from '../../shared/startup-clock.js';
import type { Catalog } from './catalog.js';
import type { Drops } from './drops.js';
import type { Replicas } from './replicas.js';

/** One collection's load at start, summed over its shards (logged per collection). */
export interface CollectionLoad {
  collection: string;
  shards: number;
  points: number;
  graphsRead: number;
  graphsRebuilt: number;
  replayedWrites: number;
  /** Why graphs were rebuilt, one entry per shard that rebuilt any (`shard N: reason`). */
  rebuildReasons: string[];
}

/** The workers' start-up marks and each shard's load phases, for the start-up log line. */
export interface StartupReport {
  workers: StartupMark[][];
  shards: ({ collection: number; shard: number; worker: number } & Partial<ShardLoadPhases>)[];
}

export interface StartParts {
  db: QuiverDb;
  catalog: Catalog;
  replicas: Replicas;
  drops: Drops;
  opIds: OpIdCounter;
  workerCount: number;
}

/** Loads the catalog and waits for every worker to load its shards; answers the workers' pings. */
export async function loadAll({ db, catalog, replicas, drops, opIds, workerCount }: StartParts): Promise<PingResult[]> {
  // Data dirs from before the drops database kept a deleted collection in the catalog, marked.
  for (const { key, value } of db.catalog.getRange()) {
    if (value.deleting === true) await drops.retire(key, value);
    else catalog.set(key, value);
  }
  // Every worker loads its copies before it answers the ping below: all start Active.
  for (const e of catalog.values()) {
    replicas.newTable(e);
    if (replicas.effectiveReplicas(e) > 1) replicas.logCopies(e, 'loaded');
  }
  const pings = await Promise.all(Array.from({ length: workerCount }, (_, w) => replicas.router.ping(w)));
  for (const p of pings) for (const v of Object.values(p.maxVersions)) opIds.seed(v);
  // Past every id the catalog and the drops hold, whatever the counter says.
  catalog.seedIds();
  drops.resume();
  return pings;
}

/** Each collection's load, summed over its shards, in catalog order. */
export function collectionLoads(catalog: Catalog, pings: readonly PingResult[]): CollectionLoad[] {
  const byId = new Map<number, CollectionLoad>();
  for (const e of catalog.values()) {
    byId.set(e.id, { collection: e.name, shards: 0, points: 0, graphsRead: 0, graphsRebuilt: 0, replayedWrites: 0, rebuildReasons: [] });
  }
  for (const l of pings.flatMap((p) => p.loads)) {
    const c = byId.get(l.collection);
    if (c === undefined) continue;
    c.shards++;
    c.points += l.points;
    c.graphsRead += l.graphsRead;
    c.graphsRebuilt += l.graphsRebuilt;
    c.replayedWrites += l.replayed;
    if (l.rebuildReason !== null) c.rebuildReasons.push(`shard ${l.shard}: ${l.rebuildReason}`);
  }
  return [...byId.values()];
}

/** The workers' marks and each shard's load phases. */
export function startupReport(pings: readonly PingResult[]): StartupReport {
  return {
    workers: pings.map((p) => p.startup),
    shards: pings.flatMap((p) => p.loads.map((l) => ({ collection: l.collection, shard: l.shard, worker: p.workerIndex, ...l.phases }))),
  };
}
