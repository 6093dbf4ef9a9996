// Where points, shards and their copies live. Both threads compute placement from these
// functions, so the main thread's router and the workers' loaders always agree.

import type { PointId } from './types.js';

/** FNV-1a over the id's canonical text: stable across restarts and platforms. */
export function shardOf(id: PointId, shardNumber: number): number {
  const s = typeof id === 'number' ? `n${id}` : `u${id}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shardNumber;
}

/** The worker that owns shard `shard` of collection `collectionId`, for the life of the process. */
export function workerOf(collectionId: number, shard: number, workerCount: number): number {
  return (collectionId + shard) % workerCount;
}

/**
 * How many copies of each shard a collection keeps: its replication_factor, at most one per
 * worker (two copies in one thread would share its core and double its memory for nothing).
 */
export function effectiveReplicas(replicationFactor: number | undefined, workerCount: number): number {
  return Math.max(1, Math.min(replicationFactor ?? 1, workerCount));
}

/**
 * The worker of copy `copy` of a shard: the primary's (copy 0, workerOf) and the next ones after
 * it, so the copies of one shard sit on distinct workers.
 */
export function copyWorker(collectionId: number, shard: number, copy: number, workerCount: number): number {
  return (workerOf(collectionId, shard, workerCount) + copy) % workerCount;
}

/**
 * Which copy of a shard `worker` holds (0 = primary), or -1 for none, given `copies` copies per
 * shard (effectiveReplicas). Workers load by this, the router writes by copyWorker: they agree.
 */
export function copyIndexOn(collectionId: number, shard: number, copies: number, worker: number, workerCount: number): number {
  const r = (worker - workerOf(collectionId, shard, workerCount) + workerCount) % workerCount;
  return r < copies ? r : -1;
}

/**
 * A copy's state, in Qdrant's replica-state words: Active (read and written), Partial (being
 * built: written, not read), Dead (neither, until it is rebuilt).
 */
export type CopyState = 'Active' | 'Partial' | 'Dead';

export interface ShardCopy {
  worker: number;
  state: CopyState;
}

/**
 * Where the copies of a collection's shards are and whether they serve reads: plain data (it
 * crosses threads beside CollectionMeta). `shards[s][r]` is copy r of shard s; r = 0 is the
 * primary, the one copy that writes LMDB and graph files.
 */
export interface ReplicaTable {
  collection: number;
  shards: ShardCopy[][];
}

/** The placement of every copy, all in the given state (Active: a collection loaded or created empty). */
export function replicaTable(collectionId: number, shardNumber: number, replicationFactor: number | undefined, workerCount: number, state: CopyState = 'Active'): ReplicaTable {
  const copies = effectiveReplicas(replicationFactor, workerCount);
  return {
    collection: collectionId,
    shards: Array.from({ length: shardNumber }, (_, s) => Array.from({ length: copies }, (_, r) => ({ worker: copyWorker(collectionId, s, r, workerCount), state }))),
  };
}
