// Point writes in cluster mode (docs/cluster.md section 4): the Engine hands each shard's part of a
// write here instead of to the shard's worker. The part is published to the shard's stream
// (shard-log.ts); the worker that owns the shard applies it from there (src/workers/cluster/).
// - wait=false answers once the part is stored in its stream: the counts it reports are what
//   was asked (the apply has not run yet);
// - wait=true answers once the local replica applied it with LMDB flushed, with the result (or
//   error) the apply gave, or 503 if that takes longer than `applyTimeoutMs`.
// The write's operation_id is the largest sequence among its parts (operationId).

import { isLoggedOp, type LoggedWrite } from '../log-entry.js';
import type { CollectionMeta } from '../types.js';
import type { ShardCall, ShardOp } from '../shard-router.js';
import type { ShardLog, WarnLog } from './shard-log.js';

/** What the Engine asks of cluster writes (engine.ts keeps to this interface: no NATS import on its path). */
export interface WriteLog {
  /** The write's part for the shard through the log, or null when `req` is not a logged write. */
  write(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, awaitApplied: (seq: number, timeoutMs: number) => Promise<{ result: unknown }>): Promise<unknown> | null;
  /** The operation id a finished write answers: the largest sequence of its parts (forgotten once asked). */
  operationId(opId: number): number;
  createStreams(meta: CollectionMeta): Promise<void>;
  /** The last sequence of a shard's stream (0: empty). */
  lastSeq(collection: number, shard: number): Promise<number>;
  deleteStreams(meta: CollectionMeta): Promise<void>;
  /** Where the log reports slow or retried publishes. */
  setLog(log: WarnLog): void;
  close(): Promise<void>;
}

/** Largest sequences kept for writes whose operation id nobody asked (failed ones). */
const SEQS_KEPT = 10_000;

/** What a write asked for, as its op's result reports it, before any replica applied it. */
function asked(w: LoggedWrite): unknown {
  switch (w.op) {
    case 'upsert':
    case 'updateVectors':
      return { applied: w.batch.ids.length };
    case 'delete':
      return { deleted: w.ids?.length ?? 0 };
    case 'payload':
    case 'deleteVectors':
      return { applied: w.ids?.length ?? 0 };
  }
}

export class LoggedWrites implements WriteLog {
  readonly #log: ShardLog;
  readonly #applyTimeoutMs: number;
  readonly #seqs = new Map<number, number>();

  constructor(log: ShardLog, applyTimeoutMs = 10_000) {
    this.#log = log;
    this.#applyTimeoutMs = applyTimeoutMs;
  }

  write(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, awaitApplied: (seq: number, timeoutMs: number) => Promise<{ result: unknown }>): Promise<unknown> | null {
    if (!isLoggedOp(req.op)) return null;
    return this.#write(meta, shard, req as ShardCall<ShardOp> & { opId: number; wait: boolean }, awaitApplied);
  }

  async #write(meta: CollectionMeta, shard: number, req: { opId: number; wait: boolean }, awaitApplied: (seq: number, timeoutMs: number) => Promise<{ result: unknown }>): Promise<unknown> {
    const { opId, wait, ...rest } = req;
    const write = rest as LoggedWrite;
    const seq = await this.#log.publish(meta.id, shard, opId, write);
    const before = this.#seqs.get(opId);
    if (before === undefined && this.#seqs.size >= SEQS_KEPT) this.#seqs.delete(this.#seqs.keys().next().value!);
    if (before === undefined || seq > before) this.#seqs.set(opId, seq);
    if (!wait) return asked(write);
    const { result } = await awaitApplied(seq, this.#applyTimeoutMs);
    return result ?? asked(write);
  }

  operationId(opId: number): number {
    const seq = this.#seqs.get(opId);
    this.#seqs.delete(opId);
    return seq ?? opId;
  }

  createStreams(meta: CollectionMeta): Promise<void> {
    return this.#log.createStreams(meta.id, meta.config.shard_number);
  }

  lastSeq(collection: number, shard: number): Promise<number> {
    return this.#log.lastSeq(collection, shard);
  }

  deleteStreams(meta: CollectionMeta): Promise<void> {
    return this.#log.deleteStreams(meta.id, meta.config.shard_number);
  }

  setLog(log: WarnLog): void {
    this.#log.log = log;
  }

  close(): Promise<void> {
    return this.#log.close();
  }
}
