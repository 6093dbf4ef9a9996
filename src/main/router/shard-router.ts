// Collection + point -> shard -> worker. Placement is computed by src/shared/placement.ts, the
// same functions the workers load by, so a shard's requests always reach the thread owning it.

import { shardOf, workerOf } from '../../shared/placement.js';
import type { Op, RequestOf, ResultOf } from '../../shared/protocol.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { ShardDispatcher } from './dispatcher.js';

type ControlOp = 'openShards' | 'updateConfig' | 'dropShards' | 'createIndex' | 'dropIndex';
export type ShardOp = Exclude<Op, 'ping' | 'saveIndexes' | ControlOp>;
/**
 * A shard request without its address (collection, shard), which the router fills in. The op is
 * inferred from the literal's `op` (the `{ op: O }` half), so call sites name it once.
 */
export type ShardCall<O extends ShardOp> = { op: O } & Omit<RequestOf<O>, 'collection' | 'shard'>;

export class ShardRouter {
  readonly #dispatcher: ShardDispatcher;

  constructor(dispatcher: ShardDispatcher) {
    this.#dispatcher = dispatcher;
  }

  workerOf(meta: CollectionMeta, shard: number): number {
    return workerOf(meta.id, shard, this.#dispatcher.workerCount);
  }

  shardOf(meta: CollectionMeta, id: PointId): number {
    return shardOf(id, meta.config.shard_number);
  }

  /** Groups item indexes by the shard their id lives in. */
  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    const out = new Map<number, number[]>();
    ids.forEach((id, i) => {
      const s = this.shardOf(meta, id);
      const list = out.get(s);
      if (list === undefined) out.set(s, [i]);
      else list.push(i);
    });
    return out;
  }

  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const full = { ...req, collection: meta.id, shard } as unknown as RequestOf<O>;
    return this.#dispatcher.call<O>(this.workerOf(meta, shard), full, transfer);
  }

  /** The same request to every shard of the collection, results in shard order. */
  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    const calls: Promise<ResultOf<O>>[] = [];
    for (let s = 0; s < meta.config.shard_number; s++) calls.push(this.call(meta, s, req));
    return Promise.all(calls);
  }

  /** Control messages to every worker owning one of the collection's shards. */
  async control(meta: CollectionMeta, make: (shards: number[]) => RequestOf<ControlOp>): Promise<void> {
    const byWorker = new Map<number, number[]>();
    for (let s = 0; s < meta.config.shard_number; s++) {
      const w = this.workerOf(meta, s);
      byWorker.set(w, [...(byWorker.get(w) ?? []), s]);
    }
    await Promise.all([...byWorker].map(([w, shards]) => this.#dispatcher.call(w, make(shards))));
  }

  saveIndexes(worker: number): Promise<ResultOf<'saveIndexes'>> {
    return this.#dispatcher.call<'saveIndexes'>(worker, { op: 'saveIndexes' });
  }

  ping(worker: number): Promise<ResultOf<'ping'>> {
    return this.#dispatcher.call<'ping'>(worker, { op: 'ping' });
  }
}
