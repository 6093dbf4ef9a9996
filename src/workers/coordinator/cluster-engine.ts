// A coordinating worker's PointEngine in cluster mode: the point services run here over the
// shards' replicas on every node, as they do over this process's workers on a single node
// (docs/request-path.md, "Where a request is coordinated"). Reads go to one Active replica per
// shard (this node's own through the sibling channel to the shard's primary worker, another
// node's over the internal port), hedged as ClusterShards decides; writes are published to the
// shard's log on NATS from this thread and answered once write_consistency_factor replicas have
// applied them. The replicas and peers it sees are the main thread's mirror, pushed whole
// (ClusterStateView); the catalog is the coordinator's mirror.
//
// Invariants: this node's replica refuses with a retryable ShardUnavailable while the catalog
// here is not ready or does not hold the collection (the caller's ClusterShards then asks another
// replica, never answering 412 or 404 for it); the write log connection is opened once, as the
// engine is made, and a failed open answers 503 and is tried again by the next write.

import { ClusterShards, localShardsOf, type LocalShards } from '../../shared/cluster/cluster-shards.js';
import { InternalPeers } from '../../shared/cluster/internal-client.js';
import { LoggedWrites, type WriteLog } from '../../shared/cluster/logged-writes.js';
import { ShardLog } from '../../shared/cluster/shard-log.js';
import type { ClusterStateView } from '../../shared/cluster/state-view.js';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import { isLoggedOp } from '../../shared/log-entry.js';
import type { OpIdCounter } from '../../shared/op-ids.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { ResultOf } from '../../shared/protocol.js';
import type { ShardCall, ShardOp, ShardRouter } from '../../shared/shard-router.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { CatalogMirror } from './catalog-mirror.js';
import { workerLog } from '../stdout-log.js';
import type { TlsFiles } from '../../shared/tls.js';

export interface ClusterEngineOptions {
  catalog: CatalogMirror;
  /** This worker's router over its sibling channels (this node's own replicas). */
  router: ShardRouter;
  opIds: OpIdCounter;
  state: ClusterStateView;
  nats: string[];
  /** The shards' stream replicas (config cluster.stream_replicas). */
  streamReplicas: number;
  /** config cluster.hedge_ms. */
  hedgeMs: number;
  /** The largest internal message (grpc_max_message_mb), bytes. */
  maxMessageBytes: number;
  /** The internal port's TLS files (cluster.enable_tls): peers are dialled with them. */
  tls?: Required<TlsFiles>;
  /** Called with this thread's count of hedged reads whenever it grows (the metrics read it). */
  onHedged?: (count: number) => void;
}


/** The write log, opened on first use: the log's publish and lastSeq, retried by the next call after a failure. */
class LazyWriteLog implements Pick<WriteLog, 'write' | 'operationId' | 'lastSeq'> {
  readonly #open: () => Promise<LoggedWrites>;
  #log: LoggedWrites | null = null;
  #opening: Promise<LoggedWrites> | null = null;
  constructor(open: () => Promise<LoggedWrites>) {
    this.#open = open;
  }

  /** Starts opening the log (a failure is retried by the next call). */
  warm(): void {
    this.#get().catch(() => undefined);
  }

  #get(): Promise<LoggedWrites> {
    if (this.#log !== null) return Promise.resolve(this.#log);
    this.#opening ??= this.#open().then(
      (log) => {
        this.#log = log;
        return log;
      },
      (err: unknown) => {
        this.#opening = null;
        throw new QuiverError('ShardUnavailable', `The shards' write log on NATS cannot be reached from this worker: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    return this.#opening;
  }

  write(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, awaitApplied: (seq: number, timeoutMs: number) => Promise<{ result: unknown }>): Promise<unknown> | null {
    if (this.#log !== null) return this.#log.write(meta, shard, req, awaitApplied);
    if (!isLoggedOp(req.op)) return null;
    return this.#get().then((log) => log.write(meta, shard, req, awaitApplied));
  }

  operationId(opId: number): number {
    // No write went through a log not opened yet: its id is the operation's own.
    return this.#log === null ? opId : this.#log.operationId(opId);
  }

  lastSeq(collection: number, shard: number): Promise<number> {
    return this.#get().then((log) => log.lastSeq(collection, shard));
  }

  async close(): Promise<void> {
    const log = this.#log ?? (await this.#opening?.catch(() => null)) ?? null;
    await log?.close().catch(() => undefined);
  }
}

export class ClusterWorkerEngine implements PointEngine {
  readonly #catalog: CatalogMirror;
  readonly #router: ShardRouter;
  readonly #opIds: OpIdCounter;
  readonly #shards: ClusterShards;
  readonly #log: LazyWriteLog;
  readonly #peers: InternalPeers;
  readonly #local: LocalShards;
  readonly #atLogEnd: boolean;
  readonly atLogEnd?: () => PointEngine;

  constructor(opts: ClusterEngineOptions);
  constructor(opts: ClusterEngineOptions, base: ClusterWorkerEngine);
  constructor(opts: ClusterEngineOptions, base?: ClusterWorkerEngine) {
    this.#catalog = opts.catalog;
    this.#router = opts.router;
    this.#opIds = opts.opIds;
    if (base !== undefined) {
      this.#shards = base.#shards;
      this.#log = base.#log;
      this.#peers = base.#peers;
      this.#local = base.#local;
      this.#atLogEnd = true;
      return;
    }
    this.#log = new LazyWriteLog(async () => {
      // Bounded by a write's own deadline (15 s), not start-up's 30 s wait for JetStream.
      const log = new LoggedWrites(await ShardLog.open({ servers: opts.nats, replicas: opts.streamReplicas, jetStreamWaitMs: 10_000 }));
      log.setLog({ warn: (fields, msg) => workerLog('warn', fields, msg) });
      return log;
    });
    // Opened now, in the background, so the first write does not wait for the connection.
    this.#log.warm();
    this.#peers = new InternalPeers(opts.maxMessageBytes, opts.tls);
    this.#shards = new ClusterShards({
      state: opts.state,
      peers: this.#peers,
      log: this.#log,
      lastSeq: (c, s) => this.#log.lastSeq(c, s),
      hedgeMs: opts.hedgeMs,
      ...(opts.onHedged === undefined ? {} : { onHedged: opts.onHedged }),
    });
    this.#local = localShardsOf(this.#catalog, this.#router);
    this.#atLogEnd = false;
    const view = new ClusterWorkerEngine(opts, this);
    this.atLogEnd = () => view;
  }

  /** This node's own replicas, each on its primary worker here: what the internal port serves peers. */
  get local(): LocalShards {
    return this.#local;
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

  operationId(opId: number): number {
    return this.#log.operationId(opId);
  }

  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>): Promise<ResultOf<O>> {
    return this.#shards.call(meta, shard, req, this.#local, this.#atLogEnd);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.#shards.fanOut(meta, req, this.#local, this.#atLogEnd);
  }

  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.#router.partition(meta, ids);
  }

  async close(): Promise<void> {
    this.#peers.close();
    await this.#log.close();
  }
}
