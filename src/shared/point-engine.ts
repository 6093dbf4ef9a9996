// What the point services (src/main/service: search, query, points, writes...) need from an
// engine: a live collection by name, operation ids, and the shard router's call / fanOut /
// partition. The main thread's Engine provides it, and so does a coordinating worker
// (src/workers/coordinator/worker-engine.ts) over its catalog mirror and sibling channels, so
// the same service code runs on either thread.

import type { ResultOf } from './protocol.js';
import type { CollectionMeta, PointId } from './types.js';
import type { ShardCall, ShardOp } from './shard-router.js';

export interface PointEngine {
  requireReady(): void;
  /** A live collection by name: 404 if unknown, 412 while it is being deleted. */
  collection(name: string): CollectionMeta;
  /** An operation id for a write to the collection: grows per collection. */
  nextOpId(collection: number): number;
  /**
   * The operation id a finished write answers (cluster mode: the largest log sequence of its
   * parts); absent, the id from nextOpId.
   */
  operationId?(opId: number): number;
  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>>;
  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]>;
  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]>;
  /**
   * Cluster mode only: the same engine reading at the write log's end (a read's `consistency`
   * other than 1: src/shared/read-consistency.ts). Absent, that consistency is accepted
   * and changes nothing (one node: its replicas are written in one order and waited for).
   */
  atLogEnd?: () => PointEngine;
}
