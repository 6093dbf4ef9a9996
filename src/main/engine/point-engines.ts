// The main thread's point engines (src/shared/point-engine.ts): how a point call reaches its
// shards, one implementation per mode, chosen once when the server wires the Engine (a PointMode)
// and never per call:
// - LocalPointEngine: this thread's ShardRouter, to this process's workers;
// - LoggedPointEngine: one node with the shards' write logs on: write ops go through the log
//   (src/shared/cluster/logged-writes.ts) and answer once the shard's worker has applied them,
//   everything else through the router;
// - ClusterPointEngine (cluster-point-engine.ts): the shards' replicas on any node.
// Each shares the Engine's catalog, router and operation id counter (PointEngineParts); the
// Engine facade delegates its call / fanOut / operationId / atLogEnd to the one it was given.
//
// Invariant: a mode's writes all take one path (the router's, or the log's), so a shard's
// writes keep one order whichever service sends them.

import type { ResultOf } from '../../shared/protocol.js';
import type { OpIdCounter } from '../../shared/op-ids.js';
import type { PointEngine } from '../../shared/point-engine.js';
import type { ShardCall, ShardOp, ShardRouter } from '../../shared/shard-router.js';
import type { CollectionMeta, PointId } from '../../shared/types.js';
import type { LocalShards } from '../../shared/cluster/cluster-shards.js';
import type { WriteLog } from '../../shared/cluster/logged-writes.js';
import type { LiveCollections } from './catalog.js';

/** What every point engine shares with the Engine that holds it. */
export interface PointEngineParts {
  /** The live collections (readiness, lookups by name and by id). */
  readonly collections: LiveCollections;
  /** This thread's router over the Engine's replica tables. */
  readonly router: ShardRouter;
  /** The operation id counter, shared with the coordinating workers. */
  readonly opIds: OpIdCounter;
  /** This node's own replicas by cluster-wide collection id (what the internal port serves). */
  readonly local: LocalShards;
}

/** A point engine of the main thread: it always says which operation id a write answers. */
export interface MainPointEngine extends PointEngine {
  operationId(opId: number): number;
}

/** A point mode, as the server chooses it: the engine to build, and the write log it needs. */
export interface PointMode {
  /** The shards' write logs: their streams are made and deleted with collections (null: none). */
  readonly writeLog: WriteLog | null;
  create(parts: PointEngineParts): MainPointEngine;
}

/** What the modes share: the catalog's lookups, the shared id counter and the router's partition. */
export abstract class PointEngineBase implements MainPointEngine {
  protected readonly collections: LiveCollections;
  protected readonly router: ShardRouter;
  readonly #opIds: OpIdCounter;

  constructor(parts: PointEngineParts) {
    this.collections = parts.collections;
    this.router = parts.router;
    this.#opIds = parts.opIds;
  }

  requireReady(): void {
    this.collections.requireReady();
  }

  collection(name: string): CollectionMeta {
    return this.collections.collection(name);
  }

  /** From the counter every thread shares: grows per collection, though not by exactly 1. */
  nextOpId(_collection: number): number {
    return this.#opIds.next();
  }

  /** The id from nextOpId: only a write log numbers writes otherwise. */
  operationId(opId: number): number {
    return opId;
  }

  /** Groups item indexes by the shard their id lives in. */
  partition(meta: CollectionMeta, ids: readonly PointId[]): Map<number, number[]> {
    return this.router.partition(meta, ids);
  }

  /** One request to one shard of the collection. */
  abstract call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>>;

  /** The same request to every shard of the collection, results in shard order. */
  abstract fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]>;
}

/** One process, no write log: every point call goes through this thread's router. */
export class LocalPointEngine extends PointEngineBase {
  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    return this.router.call(meta, shard, req, transfer);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.router.fanOut(meta, req);
  }
}

/**
 * One node with the shards' write logs: a write op is appended to its shard's log and answers
 * once the shard's primary worker (which follows the log) has applied it; reads, and ops the log
 * does not take, go through the router.
 */
export class LoggedPointEngine extends PointEngineBase {
  readonly #log: Pick<WriteLog, 'write' | 'operationId'>;

  constructor(parts: PointEngineParts, log: Pick<WriteLog, 'write' | 'operationId'>) {
    super(parts);
    this.#log = log;
  }

  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const logged = this.#log.write(meta, shard, req, (seq, timeoutMs) => this.router.call(meta, shard, { op: 'awaitApplied', seq, timeoutMs }));
    // The log answers each write op with that op's result (logged-writes.ts).
    if (logged !== null) return logged as Promise<ResultOf<O>>;
    return this.router.call(meta, shard, req, transfer);
  }

  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    return this.router.fanOut(meta, req);
  }

  /** The largest log sequence of the write's parts. */
  override operationId(opId: number): number {
    return this.#log.operationId(opId);
  }
}

/** One process, no write log (the default). */
export function localPoints(): PointMode {
  return { writeLog: null, create: (parts) => new LocalPointEngine(parts) };
}

/** The shards' write logs, and no data plane to other nodes: this node's workers hold every shard. */
export function loggedPoints(log: WriteLog): PointMode {
  return { writeLog: log, create: (parts) => new LoggedPointEngine(parts, log) };
}
