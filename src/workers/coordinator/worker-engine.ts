// The PointEngine of a coordinating worker: collections from the catalog mirror, operation ids
// from the counter every thread shares, and shards through the ShardRouter over the sibling
// channels, so the service layer runs here exactly as on the main thread. Reads of a collection
// with copies take this worker's own Active copy when it has one, else the least busy Active one
// (the replica table comes with the catalog); writes of such collections never come here
// (src/main/coordinator/replica-aware.ts).

import type { PointEngine } from '../../shared/point-engine.js';
import { ShardRouter, type ShardCall, type ShardOp } from '../../shared/shard-router.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import type { OpIdCounter } from '../../shared/op-ids.js';
import type { ResultOf } from '../../shared/protocol.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { CatalogMirror } from './catalog-mirror.js';
import type { PeerDispatcher } from './peers.js';

export class WorkerEngine implements PointEngine {
  readonly #catalog: CatalogMirror;
  readonly #router: ShardRouter;
  readonly #opIds: OpIdCounter;

  constructor(worker: number, catalog: CatalogMirror, peers: PeerDispatcher, opIds: OpIdCounter) {
    this.#catalog = catalog;
    this.#router = new ShardRouter(peers, (meta) => catalog.replicas(meta), worker);
    this.#opIds = opIds;
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
    return this.#router.call(meta, shard, req, transfer);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.#router.fanOut(meta, req);
  }

  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.#router.partition(meta, ids);
  }
}
