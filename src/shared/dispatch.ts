// The interfaces through which a thread reaches shard workers (ShardDispatcher) and coordinating
// workers (Coordinators). The main thread implements them over piscina (src/main/router/
// dispatcher.ts), a coordinating worker over its sibling ports (src/workers/coordinator/peers.ts),
// and tests in-process: callers hold the interface and never ask which one they have.

import type { Op, RequestOf, ResultOf } from './protocol.js';
import type { AnyHandoffRequest, CatalogSnapshot, HandoffReplyOf } from './coordination.js';

/** How far the workers are in loading their shards at start (summed over workers). */
export interface LoadProgress {
  shardsLoaded: number;
  shardsTotal: number;
  points: number;
  /** Workers that have not yet counted their shards (their total is still unknown). */
  workersCounting: number;
}

export interface ShardDispatcher {
  readonly workerCount: number;
  /** Start-up progress, for /readyz; absent when the dispatcher loads before it is returned (in-process). */
  loadProgress?(): LoadProgress;
  /**
   * Shard requests each worker has served so far, by op, whoever sent them (the main thread or a
   * coordinating worker); absent when only the main thread's router sends (in-process).
   */
  servedCounts?(): { worker: number; op: string; count: number }[];
  call<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>>;
  close(): Promise<void>;
}

/** The main thread's way to a coordinating worker: point requests, and the catalog they need. */
export interface Coordinators {
  /** Hands one request (its raw body or message moved) to a coordinating worker and resolves with the whole answer. */
  handoff<R extends AnyHandoffRequest>(req: R): Promise<{ reply: HandoffReplyOf<R>; worker: number }>;
  /** Gives every coordinator the catalog; resolves when all have it. */
  publishCatalog(snapshot: CatalogSnapshot): Promise<void>;
}

