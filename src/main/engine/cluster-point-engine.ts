// Cluster mode across nodes (src/shared/cluster/cluster-shards.ts): point calls reach each shard's
// replicas wherever they live, writes through the shard's log, and this node's own replicas run on
// the shard's primary worker here, the one that follows the shard's write log (localShards: what
// the internal port serves other nodes, and what ClusterShards calls for this node's replica).
//
// Invariants: reads answer what the chosen replica applied, or (the atLogEnd view, a read's
// strong `consistency`) what it applied up to the log's end when the read started; a local
// replica refuses with a retryable ShardUnavailable while this node is loading or does not hold
// the collection, so the caller asks another replica instead of answering 412 / 404.

import type { PointEngine } from '../../shared/point-engine.js';
import type { ResultOf } from '../../shared/protocol.js';
import type { ShardCall, ShardOp } from '../../shared/shard-router.js';
import type { CollectionMeta } from '../../shared/types.js';
import { localShardsOf, type ClusterShards, type LocalShards } from '../../shared/cluster/cluster-shards.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import { PointEngineBase, type PointEngineParts, type PointMode } from './point-engines.js';

/** Several nodes: each shard's replicas, wherever they live, through ClusterShards. */
export class ClusterPointEngine extends PointEngineBase {
  readonly #shards: Pick<ClusterShards, 'call' | 'fanOut'>;
  readonly #log: Pick<WriteLog, 'operationId'>;
  readonly #local: LocalShards;
  /** Whether reads wait for the log's end (the view atLogEnd answers). */
  readonly #atLogEnd: boolean;
  /** This engine reading at the log's end (PointEngine.atLogEnd); absent on that view itself. */
  readonly atLogEnd?: () => PointEngine;

  constructor(parts: PointEngineParts, shards: Pick<ClusterShards, 'call' | 'fanOut'>, log: Pick<WriteLog, 'operationId'>, atLogEnd = false) {
    super(parts);
    this.#shards = shards;
    this.#log = log;
    this.#local = parts.local;
    this.#atLogEnd = atLogEnd;
    if (!atLogEnd) {
      const view = new ClusterPointEngine(parts, shards, log, true);
      this.atLogEnd = () => view;
    }
  }

  /** One request to one shard's replicas (the transfer list is not used: requests cross nodes). */
  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>): Promise<ResultOf<O>> {
    return this.#shards.call(meta, shard, req, this.#local, this.#atLogEnd);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.#shards.fanOut(meta, req, this.#local, this.#atLogEnd);
  }

  /** The largest log sequence of the write's parts. */
  override operationId(opId: number): number {
    return this.#log.operationId(opId);
  }
}

/** Cluster mode across nodes: ClusterShards holds the write log too (writes go through it). */
export function clusterPoints(shards: ClusterShards, log: WriteLog): PointMode {
  return { writeLog: log, create: (parts) => new ClusterPointEngine(parts, shards, log) };
}

export { localShardsOf };
