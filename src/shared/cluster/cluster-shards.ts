// Shards across nodes (cluster mode, docs/cluster.md sections 4 and 6): what the Engine's call() and
// fanOut() do when this node is one of several. The service layer and its merges are unchanged:
// they get the same worker results, in shard order, wherever the shard's replica lives.
// - A read goes to one Active replica per shard, as the ClusterState mirror has them: this node's
//   own first (no hop), else the live peer's with the highest reported applied_seq (ties: the one
//   with fewer calls in flight from here), over the internal port (internal-client.ts). A replica
//   that cannot be reached, answers ShardUnavailable, or loses its lease before it answers, is
//   replaced once by the next in order; one that has not answered within the hedge deadline
//   (hedge.ts) is not given up but joined by the next in order, and the first answer wins (the
//   other is cancelled). Not while that replica's node answered another read from here within
//   the deadline: it is busy, not stalled, and a second replica would only add load (measured
//   with `npm run bench:cluster` on a saturated machine: 12.8% of queries hedged, 19% fewer
//   queries a second than with no hedging); the hedge is put off by another deadline. Either
//   way a read asks at most two replicas. No Active replica: 503 naming the shard. Writes never
//   hedge: each is published once, to the log.
// - A read at the log's end (`consistency` other than 1: read-consistency.ts) first takes each
//   shard's stream last sequence, and the replica answers only once it has applied that far.
// - A write goes through the shard's log (logged-writes.ts); before it is published the shard must
//   have at least write_consistency_factor Active replicas (else 503, as Qdrant answers); with
//   wait=true it answers once that many of them have applied it with LMDB flushed (this node's
//   replica through its worker, others through AwaitApplied), bounded in time (503 past it).

import { QuiverError } from '../errors.js';
import { isLoggedOp } from '../log-entry.js';
import type { ResultOf } from '../protocol.js';
import type { CollectionMeta } from '../types.js';
import type { ShardCall, ShardOp, ShardRouter } from '../shard-router.js';
import { HedgeDeadlines } from './hedge.js';
import { PeerUnreachable, type PeerCalls } from './internal-client.js';
import type { WriteLog } from './logged-writes.js';
import type { ClusterState, ReplicaInfo } from './state.js';

/** The signal of a call nothing gives up (this node's own replica). */
const NEVER = new AbortController().signal;

/** This node's own replicas, run through its workers (the Engine provides it; never across nodes). */
export interface LocalShards {
  call(collectionId: number, shard: number, req: ShardCall<ShardOp>): Promise<unknown>;
  /** Resolves once this node's replica applied `seq` with LMDB flushed, with that entry's outcome. */
  awaitApplied(collectionId: number, shard: number, seq: number, timeoutMs: number): Promise<{ result: unknown }>;
}

/**
 * This node's own replicas by cluster-wide collection id, each on its primary worker here (the
 * main thread's Engine and a worker's cluster engine build them alike). While loading, or for a
 * collection not open here, a retryable ShardUnavailable: the caller asks another replica.
 */
export function localShardsOf(collections: { readonly ready: boolean; byId(id: number): CollectionMeta | undefined }, router: Pick<ShardRouter, 'callOn' | 'workerOf'>): LocalShards {
  const byId = (collectionId: number): CollectionMeta => {
    // Still loading: another replica answers (a 412 would reach the caller's client).
    if (!collections.ready) throw new QuiverError('ShardUnavailable', 'This node is still loading its shards');
    const entry = collections.byId(collectionId);
    if (entry !== undefined) return entry;
    // Not mirrored here yet, or being deleted: the caller tries another replica.
    throw new QuiverError('ShardUnavailable', `Collection ${collectionId} is not open on this node`);
  };
  return {
    call: async (collectionId, shard, req) => {
      const meta = byId(collectionId);
      return router.callOn(router.workerOf(meta, shard), meta, shard, req);
    },
    awaitApplied: async (collectionId, shard, seq, timeoutMs) => {
      const meta = byId(collectionId);
      return router.callOn(router.workerOf(meta, shard), meta, shard, { op: 'awaitApplied', seq, timeoutMs });
    },
  };
}

export interface ClusterShardsOptions {
  state: ClusterState;
  peers: PeerCalls;
  /** Writes go through it (logged-writes.ts). */
  log: Pick<WriteLog, 'write'>;
  /** The shard stream's last sequence now (shard-log.ts lastSeq). */
  lastSeq(collectionId: number, shard: number): Promise<number>;
  /** How long a remote read may take before its replica is given up (ms). */
  readTimeoutMs?: number;
  /** How long a replica may take to reach a read's log end before another is tried (ms). */
  catchUpTimeoutMs?: number;
  /** The longest a read waits for its replica before another is asked too (ms; 0: never). */
  hedgeMs?: number;
  /** Told the count of hedged reads each time it grows (a worker publishes it for the metrics). */
  onHedged?: (count: number) => void;
}

/** A failure another replica may not have: the replica's, not the request's. */
function replicaFailure(err: unknown): boolean {
  if (err instanceof PeerUnreachable) return true;
  if (!(err instanceof QuiverError)) return true;
  return err.code === 'ShardUnavailable' || err.code === 'Timeout';
}

function why(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class ClusterShards {
  readonly #state: ClusterState;
  readonly #peers: PeerCalls;
  readonly #log: Pick<WriteLog, 'write'>;
  readonly #lastSeq: (collectionId: number, shard: number) => Promise<number>;
  readonly #readTimeoutMs: number;
  readonly #catchUpTimeoutMs: number;
  readonly #hedge: HedgeDeadlines;
  #hedgedReads = 0;
  readonly #onHedged: (count: number) => void;
  /** When each node (this one too) last answered a read from here (performance.now()). */
  readonly #lastAnswer = new Map<number, number>();
  /** Calls in flight from this node per peer: ties between equally fresh replicas go to the idler. */
  readonly #inFlight = new Map<number, number>();
  /** Per peer, how to give up the calls waiting on it (its lease lapsed: it may be paused or cut off). */
  readonly #waiting = new Map<number, Set<(err: Error) => void>>();

  constructor(opts: ClusterShardsOptions) {
    this.#state = opts.state;
    this.#peers = opts.peers;
    this.#log = opts.log;
    this.#lastSeq = opts.lastSeq;
    this.#readTimeoutMs = opts.readTimeoutMs ?? 10_000;
    this.#catchUpTimeoutMs = opts.catchUpTimeoutMs ?? 5_000;
    this.#hedge = new HedgeDeadlines(opts.hedgeMs ?? 0);
    this.#onHedged = opts.onHedged ?? (() => undefined);
    // A peer whose lease lapses is not waited for until the call's deadline: its calls fail as
    // unreachable at once, and a read goes to the next replica (a paused node answers nothing).
    this.#state.onChange(() => {
      for (const [node, waiting] of this.#waiting) {
        if (this.#state.peer(node) !== undefined) continue;
        for (const giveUp of waiting) giveUp(new PeerUnreachable(node, 'its lease lapsed while it was asked'));
      }
    });
  }

  /** `call` to a peer, given up when the peer's lease lapses before it answers. */
  async #whileLive<T>(node: number, call: Promise<T>): Promise<T> {
    let waiting = this.#waiting.get(node);
    if (waiting === undefined) this.#waiting.set(node, (waiting = new Set()));
    const set = waiting;
    let giveUp: (err: Error) => void = () => undefined;
    const gone = new Promise<never>((_, reject) => (giveUp = reject));
    set.add(giveUp);
    try {
      return await Promise.race([call, gone]);
    } finally {
      set.delete(giveUp);
      if (set.size === 0 && this.#waiting.get(node) === set) this.#waiting.delete(node);
    }
  }

  /** Reads sent to a second replica because the first had not answered within the hedge deadline. */
  get hedgedReads(): number {
    return this.#hedgedReads;
  }

  /** One request to one shard: a logged write through the log, anything else a read of one replica. */
  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, local: LocalShards, atLogEnd: boolean): Promise<ResultOf<O>> {
    if (isLoggedOp(req.op)) return this.#write(meta, shard, req, local) as Promise<ResultOf<O>>;
    return this.#readAt(meta, shard, req, local, atLogEnd) as Promise<ResultOf<O>>;
  }

  /** The same read to every shard (one replica each), results in shard order. */
  async fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>, local: LocalShards, atLogEnd: boolean): Promise<ResultOf<O>[]> {
    const shards = Array.from({ length: meta.config.shard_number }, (_, s) => s);
    // Every shard's end is taken before any replica is asked: the read starts at one moment.
    const ends = atLogEnd ? await Promise.all(shards.map((s) => this.#end(meta, s))) : [];
    return Promise.all(shards.map((s) => this.#read(meta, s, req, local, ends[s]) as Promise<ResultOf<O>>));
  }

  async #readAt(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, local: LocalShards, atLogEnd: boolean): Promise<unknown> {
    return this.#read(meta, shard, req, local, atLogEnd ? await this.#end(meta, shard) : undefined);
  }

  async #end(meta: CollectionMeta, shard: number): Promise<number> {
    try {
      return await this.#lastSeq(meta.id, shard);
    } catch (err) {
      throw new QuiverError('ShardUnavailable', `Cannot read the end of the write log of shard ${shard} for a consistent read: ${why(err)}`);
    }
  }

  /** The shard's Active replicas that can be asked: this node's, or a live peer's. */
  #active(collectionId: number, shard: number): ReplicaInfo[] {
    const self = this.#state.nodeId;
    return this.#state.replicas(collectionId, shard).filter((r) => r.state === 'Active' && (r.node === self || this.#state.peer(r.node) !== undefined));
  }

  /** The shard's replicas as the mirror has them, for a 503's message. */
  #describe(collectionId: number, shard: number): string {
    const self = this.#state.nodeId;
    const replicas = this.#state.replicas(collectionId, shard);
    if (replicas.length === 0) return 'not placed yet';
    return replicas.map((r) => `node ${r.node} ${r.state}${r.node !== self && this.#state.peer(r.node) === undefined ? ' without a lease' : ''}`).join(', ');
  }

  /** Read order: this node's replica, then the least lagging, then the least busy. */
  #order(collectionId: number, shard: number): ReplicaInfo[] {
    const self = this.#state.nodeId;
    return this.#active(collectionId, shard).sort((a, b) => {
      if (a.node === self || b.node === self) return a.node === self ? -1 : 1;
      if (a.appliedSeq !== b.appliedSeq) return b.appliedSeq - a.appliedSeq;
      return (this.#inFlight.get(a.node) ?? 0) - (this.#inFlight.get(b.node) ?? 0);
    });
  }

  #read(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, local: LocalShards, minSeq: number | undefined): Promise<unknown> {
    const order = this.#order(meta.id, shard);
    if (order.length === 0) return Promise.reject(new QuiverError('ShardUnavailable', `No Active replica of shard ${shard} of collection ${meta.name} (${this.#describe(meta.id, shard)}): retry later`));
    // At most two replicas: the chosen one, and one other when it fails as a replica or is slower
    // than the hedge deadline. A read at the log's end is its own kind: it waits for catch-up. So
    // is a read of this node's own replica: without the hop it answers sooner, and counted with
    // remote reads it lowered their 95th percentile until 14% of them were hedged (bench:cluster).
    const replicas = order.slice(0, 2);
    const kind = `${req.op}${minSeq === undefined ? '' : '@end'}${replicas[0]!.node === this.#state.nodeId ? '@self' : ''}`;
    const hedgeMs = replicas.length > 1 ? this.#hedge.deadline(kind) : null;
    return new Promise((resolve, reject) => {
      const failures: string[] = [];
      // Calls still waited on that can be given up (remote ones: a local call runs to its end).
      const cancels = new Set<AbortController>();
      let asked = 0;
      let settled = false;
      let hedge: NodeJS.Timeout | undefined;
      const settle = (): void => {
        settled = true;
        clearTimeout(hedge);
        for (const c of cancels) c.abort();
        cancels.clear();
      };
      const askNext = (): void => {
        const replica = replicas[asked++]!;
        // An AbortController (and aborting it: a DOMException each) cost 5% of a busy main
        // thread in bench:cluster's profile when every call had one, answered or not.
        const cancel = replica.node === this.#state.nodeId ? null : new AbortController();
        if (cancel !== null) cancels.add(cancel);
        const sent = performance.now();
        this.#ask(replica.node, meta, shard, req, local, minSeq, cancel?.signal ?? NEVER).then(
          (result) => {
            if (cancel !== null) cancels.delete(cancel);
            this.#lastAnswer.set(replica.node, performance.now());
            if (settled) return;
            this.#hedge.answered(kind, performance.now() - sent);
            settle();
            resolve(result);
          },
          (err: unknown) => {
            if (cancel !== null) cancels.delete(cancel);
            if (settled) return;
            // The request's own failure: every replica would answer it alike.
            if (!replicaFailure(err)) {
              settle();
              reject(err);
              return;
            }
            failures.push(`node ${replica.node}: ${why(err)}`);
            if (asked < replicas.length) {
              clearTimeout(hedge);
              askNext();
            } else if (failures.length === asked) {
              settle();
              reject(new QuiverError('ShardUnavailable', `No replica of shard ${shard} of collection ${meta.name} answered (${failures.join('; ')}): retry later`));
            }
          },
        );
      };
      askNext();
      if (hedgeMs !== null) {
        const arm = (): void => {
          hedge = setTimeout(() => {
            if (settled || asked >= replicas.length) return;
            // Busy, not stalled: it answered another read within the deadline (see the file comment).
            if (performance.now() - (this.#lastAnswer.get(replicas[0]!.node) ?? Number.NEGATIVE_INFINITY) < hedgeMs) return arm();
            this.#onHedged(++this.#hedgedReads);
            askNext();
          }, hedgeMs);
        };
        arm();
      }
    });
  }

  async #ask(node: number, meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, local: LocalShards, minSeq: number | undefined, signal: AbortSignal): Promise<unknown> {
    if (node === this.#state.nodeId) {
      if (minSeq !== undefined && minSeq > 0) await local.awaitApplied(meta.id, shard, minSeq, this.#catchUpTimeoutMs);
      return local.call(meta.id, shard, req);
    }
    const peer = this.#state.peer(node);
    if (peer === undefined) throw new PeerUnreachable(node, 'its lease is gone');
    this.#inFlight.set(node, (this.#inFlight.get(node) ?? 0) + 1);
    try {
      const waitMs = minSeq === undefined ? this.#readTimeoutMs : this.#readTimeoutMs + this.#catchUpTimeoutMs;
      return await this.#whileLive(node, this.#peers.shardCall(peer, { collectionId: meta.id, shard, req, ...(minSeq === undefined ? {} : { minSeq }), timeoutMs: this.#catchUpTimeoutMs }, waitMs, signal));
    } finally {
      this.#inFlight.set(node, this.#inFlight.get(node)! - 1);
    }
  }

  /** 503 before anything is published when the shard has fewer Active replicas than write_consistency_factor. */
  #writable(meta: CollectionMeta, shard: number): ReplicaInfo[] {
    const wcf = meta.config.write_consistency_factor ?? 1;
    const active = this.#active(meta.id, shard);
    if (active.length < wcf) {
      throw new QuiverError(
        'ShardUnavailable',
        `Shard ${shard} of collection ${meta.name} has ${active.length} Active replica${active.length === 1 ? '' : 's'}, fewer than write_consistency_factor ${wcf}: retry later`,
      );
    }
    return active;
  }

  async #write(meta: CollectionMeta, shard: number, req: ShardCall<ShardOp>, local: LocalShards): Promise<unknown> {
    this.#writable(meta, shard);
    return this.#log.write(meta, shard, req, (seq, timeoutMs) => this.#applied(meta, shard, seq, timeoutMs, local));
  }

  /**
   * Resolves once write_consistency_factor Active replicas of the shard applied entry `seq`, with
   * its outcome; rejects at once with the write's own failure (every replica fails it alike).
   */
  #applied(meta: CollectionMeta, shard: number, seq: number, timeoutMs: number, local: LocalShards): Promise<{ result: unknown }> {
    const wcf = meta.config.write_consistency_factor ?? 1;
    // Checked again: a replica may have died while the write was published.
    const targets = this.#writable(meta, shard);
    const self = this.#state.nodeId;
    return new Promise((resolve, reject) => {
      let applied = 0;
      const failures: string[] = [];
      for (const r of targets) {
        let asked: Promise<{ result: unknown }>;
        if (r.node === self) {
          asked = local.awaitApplied(meta.id, shard, seq, timeoutMs);
        } else {
          const peer = this.#state.peer(r.node);
          asked = peer === undefined ? Promise.reject(new PeerUnreachable(r.node, 'its lease is gone')) : this.#whileLive(r.node, this.#peers.awaitApplied(peer, { collectionId: meta.id, shard, seq, timeoutMs }));
        }
        asked.then(
          (outcome) => {
            if (++applied === wcf) resolve(outcome);
          },
          (err: unknown) => {
            if (!replicaFailure(err)) {
              reject(err);
              return;
            }
            failures.push(`node ${r.node}: ${why(err)}`);
            if (targets.length - failures.length === wcf - 1) {
              reject(
                new QuiverError(
                  'ShardUnavailable',
                  `Write is stored in the log of shard ${shard} (sequence ${seq}) but fewer than write_consistency_factor ${wcf} replicas applied it within ${timeoutMs} ms (${failures.join('; ')}); it will be applied: retry with wait=false or later`,
                ),
              );
            }
          },
        );
      }
    });
  }
}
