// Where points and shards live. Both threads compute placement from these two functions, so the
// main thread's router and the workers' loaders always agree.

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
