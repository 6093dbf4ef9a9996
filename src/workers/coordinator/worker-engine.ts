// The PointEngine of a coordinating worker: collections from the catalog mirror, operation ids
// from the counter every thread shares, and shards through the ShardRouter over the sibling
// channels, so the service layer runs here exactly as on the main thread. Reads of a collection
// with copies take this worker's own Active copy when it has one, else the least busy Active one
// (the replica table comes with the catalog); the shard calls of their writes go to the main
// thread's router instead (RoutedEngine), so that every copy gets them in one order.

import type { PointEngine } from '../../shared/point-engine.js';
import { isWriteOp, ShardRouter, type ShardCall, type ShardOp } from '../../shared/shard-router.js';
import type { BatchedPort } from '../../shared/batched-port.js';
import type { RoutedCall } from '../../shared/coordination.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import type { OpIdCounter } from '../../shared/op-ids.js';
import type { ResultOf, WorkerReply } from '../../shared/protocol.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { CatalogMirror } from './catalog-mirror.js';
import type { PeerDispatcher } from './peers.js';

export class WorkerEngine implements PointEngine {
  readonly #catalog: CatalogMirror;
  readonly #router: ShardRouter;
  readonly #opIds: OpIdCounter;
  /** The main thread's router (routed-calls channel), for writes of collections with copies. */
  readonly #routed: RoutedEngine;

  constructor(worker: number, catalog: CatalogMirror, peers: PeerDispatcher, opIds: OpIdCounter, calls: () => BatchedPort<RoutedCall, WorkerReply> | null = () => null) {
    this.#catalog = catalog;
    this.#router = new ShardRouter(peers, (meta) => catalog.replicas(meta), worker);
    this.#opIds = opIds;
    this.#routed = new RoutedEngine(this, calls);
  }

  /** The engine of a routeCalls hand-off: every shard call through the main thread's router. */
  get routed(): RoutedEngine {
    return this.#routed;
  }

  requireReady(): void {
    if (!this.#catalog.ready) throw QuiverError.precondition(ENGINE_NOT_INITIALIZED);
  }

  collection(name: string): CollectionMeta {
    return this.#catalog.collection(name);
  }

  nextOpId(_collection: number): number {
    return this.#opIds.next();
  }

  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    // A write to a collection this worker sees with copies (its catalog ahead of the hand-off's
    // routing, as while a PATCH adds a copy) takes the main thread's router too: only that router
    // may write copies, so that they all get one order.
    if (isWriteOp(req.op) && this.#catalog.replicas(meta) !== undefined) return this.#routed.call(meta, shard, req, transfer);
    return this.#router.call(meta, shard, req, transfer);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    if (isWriteOp(req.op) && this.#catalog.replicas(meta) !== undefined) return this.#routed.fanOut(meta, req);
    return this.#router.fanOut(meta, req);
  }

  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.#router.partition(meta, ids);
  }
}

/**
 * The engine of a write to a collection that keeps copies (a routeCalls hand-off): every shard
 * call goes to the main thread's router, which writes every copy of a shard in the order the calls
 * reach it; this worker still parses, checks, splits and merges (src/main/coordinator/
 * replica-aware.ts says why).
 */
export class RoutedEngine implements PointEngine {
  readonly #base: WorkerEngine;
  readonly #calls: () => BatchedPort<RoutedCall, WorkerReply> | null;

  constructor(base: WorkerEngine, calls: () => BatchedPort<RoutedCall, WorkerReply> | null) {
    this.#base = base;
    this.#calls = calls;
  }

  requireReady(): void {
    this.#base.requireReady();
  }

  collection(name: string): CollectionMeta {
    return this.#base.collection(name);
  }

  nextOpId(collection: number): number {
    return this.#base.nextOpId(collection);
  }

  async call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const port = this.#calls();
    if (port === null || !port.open) throw new QuiverError('ShardUnavailable', "The main thread's router is not reachable from this worker: retry");
    const reply = await port.send({ collection: meta.name, collectionId: meta.id, shard, req: req as ShardCall<ShardOp> }, transfer);
    if (reply.ok) return reply.result as ResultOf<O>;
    throw QuiverError.fromWire(reply.error);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return Promise.all(Array.from({ length: meta.config.shard_number }, (_, s) => this.call(meta, s, req)));
  }

  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.#base.partition(meta, ids);
  }
}
