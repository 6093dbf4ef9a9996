// Collection + point -> shard -> copy -> worker. Placement is computed by src/shared/placement.ts,
// the same functions the workers load by, so a shard's requests always reach a thread holding it.
//
// Copies (replication_factor): the replica table (plain data, owned by the Engine and read here
// through a lookup) says which workers hold each shard and which copies serve reads.
// - A write goes to every copy that is not Dead, posted in one synchronous turn, so each worker's
//   FIFO queue sees the writes of a shard in the same order. It answers with the primary's outcome
//   once the primary and every Active copy have answered; a copy whose answer differs from the
//   primary's (it failed, or applied what the primary did not) is reported through onDiverged, never
//   left to serve a different state. Partial copies (being built, requests held in their worker)
//   are not waited for; whether they failed where the primary did not (or the reverse) is checked
//   when they answer.
// - A read goes to one Active copy per shard: the copy on the preferred worker when there is one
//   (a coordinating worker prefers itself: no message hop), else the one whose worker has the
//   fewest requests in flight from this router, ties taken in turn. A read that meets a dead
//   worker (or a copy dropped under it) is retried once on another Active copy.
//
// The main thread's Engine owns the one router that writes replicated collections; the
// coordinating workers' routers read them, over the replica table their catalog mirror holds.

import { QuiverError } from './errors.js';
import { replicaTable, shardOf, workerOf, type ReplicaTable, type ShardCopy } from './placement.js';
import type { ControlOp, Op, RequestOf, ResultOf, ShardCall, ShardOp } from './protocol.js';
import type { CollectionMeta, PointId } from './types.js';
import type { ShardDispatcher } from './dispatch.js';

export type { ControlOp, ShardCall, ShardOp };

/** The ops that change a shard: sent to every copy. */
const WRITE_OPS: ReadonlySet<Op> = new Set<Op>(['upsert', 'updateVectors', 'delete', 'payload', 'deleteVectors']);

/** Whether an op changes a shard (a write: every copy of the shard gets it). */
export function isWriteOp(op: Op): boolean {
  return WRITE_OPS.has(op);
}

/** The replica table of a collection (the Engine's, or the default placement when it has none). */
export type ReplicaLookup = (meta: CollectionMeta) => ReplicaTable | undefined;

/**
 * A copy answered a write otherwise than the primary (or failed it): it must not serve reads.
 * The write answers once the promise returned resolves (the copy is out of every reader's table).
 */
export type DivergedHandler = (meta: CollectionMeta, shard: number, worker: number, why: string) => void | Promise<void>;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function outcomeKey(o: Outcome): string {
  if (o.ok) return `ok:${JSON.stringify(o.value)}`;
  return o.error instanceof QuiverError ? `err:${o.error.code}:${o.error.message}` : `err:${String(o.error)}`;
}

function settle(p: Promise<unknown>): Promise<Outcome> {
  return p.then(
    (value) => ({ ok: true, value }) as const,
    (error: unknown) => ({ ok: false, error }) as const,
  );
}

export class ShardRouter {
  readonly #dispatcher: ShardDispatcher;
  readonly #replicas: ReplicaLookup;
  /** Requests this router has in flight per worker: the load reads are balanced by. */
  readonly #inFlight: number[];
  /** Requests sent per worker and op, for /metrics (which copies serve). */
  readonly #sent: Map<string, number>[];
  /** Per shard (`collection/shard`): the turn for ties between equally loaded copies. */
  readonly #turn = new Map<string, number>();
  /** Per shard: writes in flight on its primary (a copy being built loads once they are done). */
  readonly #writes = new Map<string, Set<Promise<unknown>>>();
  /** Per shard: writes with copies, until every copy (one being built too) has answered. */
  readonly #applied = new Map<string, Set<Promise<unknown>>>();
  /** The worker whose Active copy a read takes first (-1: none). */
  readonly #prefer: number;
  /** Where a copy that diverged from its primary is reported (DivergedHandler). */
  readonly #onDiverged: DivergedHandler;

  constructor(dispatcher: ShardDispatcher, replicas: ReplicaLookup = () => undefined, prefer = -1, onDiverged: DivergedHandler = () => undefined) {
    this.#dispatcher = dispatcher;
    this.#replicas = replicas;
    this.#prefer = prefer;
    this.#onDiverged = onDiverged;
    this.#inFlight = new Array<number>(dispatcher.workerCount).fill(0);
    this.#sent = Array.from({ length: dispatcher.workerCount }, () => new Map<string, number>());
  }

  /** The primary's worker (copy 0). */
  workerOf(meta: CollectionMeta, shard: number): number {
    return workerOf(meta.id, shard, this.#dispatcher.workerCount);
  }

  /** The collection's replica table: the Engine's, else every copy of the configuration, Active. */
  table(meta: CollectionMeta): ReplicaTable {
    return this.#replicas(meta) ?? replicaTable(meta.id, meta.config.shard_number, meta.config.replication_factor, this.#dispatcher.workerCount);
  }

  #copies(meta: CollectionMeta, shard: number): ShardCopy[] {
    return this.table(meta).shards[shard] ?? [{ worker: this.workerOf(meta, shard), state: 'Active' }];
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

  #send<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    this.#inFlight[worker]!++;
    const sent = this.#sent[worker]!;
    sent.set(req.op, (sent.get(req.op) ?? 0) + 1);
    return this.#dispatcher.call<O>(worker, req, transfer).finally(() => {
      this.#inFlight[worker]!--;
    });
  }

  call<O extends ShardOp>(meta: CollectionMeta, shard: number, req: ShardCall<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const full = { ...req, collection: meta.id, shard } as unknown as RequestOf<O>;
    const copies = this.#copies(meta, shard);
    if (WRITE_OPS.has(req.op)) return this.#write(meta, shard, copies, full, transfer);
    return this.#read(`${meta.id}/${shard}`, copies, full, transfer);
  }

  /**
   * The Active copy on the preferred worker, else on the least loaded worker (ties in turn), or the
   * primary when none is Active.
   */
  #pick(copies: readonly ShardCopy[], key: string, except = -1): number {
    let best: number[] = [];
    let load = Number.POSITIVE_INFINITY;
    for (const c of copies) {
      if (c.state !== 'Active' || c.worker === except) continue;
      if (c.worker === this.#prefer) return c.worker;
      const l = this.#inFlight[c.worker]!;
      if (l < load) {
        load = l;
        best = [c.worker];
      } else if (l === load) {
        best.push(c.worker);
      }
    }
    if (best.length === 0) return except === -1 ? copies[0]!.worker : -1;
    if (best.length === 1) return best[0]!;
    const turn = this.#turn.get(key) ?? 0;
    this.#turn.set(key, turn + 1);
    return best[turn % best.length]!;
  }

  async #read<O extends ShardOp>(key: string, copies: readonly ShardCopy[], full: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const worker = this.#pick(copies, key);
    // Reads carry no vectors worth moving twice: keep a copy for a retry only when there is one.
    const retryable = copies.length > 1 && (transfer === undefined || transfer.length === 0);
    try {
      return await this.#send<O>(worker, full, transfer);
    } catch (err) {
      if (!retryable || !(err instanceof QuiverError) || err.code !== 'ShardUnavailable') throw err;
      const other = this.#pick(copies, key, worker);
      if (other < 0) throw err;
      return this.#send<O>(other, full);
    }
  }

  async #write<O extends ShardOp>(meta: CollectionMeta, shard: number, copies: readonly ShardCopy[], full: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const [primary, ...rest] = copies;
    const secondaries = rest.filter((c) => c.state !== 'Dead');
    // Copies first, each with its own clone: the primary's send moves the vectors' buffers.
    const sent = secondaries.map((c) => ({ copy: c, building: c.state === 'Partial', answer: settle(this.#send<O>(c.worker, structuredClone(full))) }));
    const p = this.#send<O>(primary!.worker, full, transfer);
    const key = `${meta.id}/${shard}`;
    const mine = settle(p);
    this.#track(this.#writes, key, mine);
    if (sent.length === 0) return p;
    this.#track(this.#applied, key, Promise.all([mine, ...sent.map((s) => s.answer)]));
    const own = await mine;
    const ownKey = outcomeKey(own);
    const check = (copy: ShardCopy, o: Outcome, building: boolean): void | Promise<void> => {
      // A copy being built replays held writes over what it loaded from LMDB: one already there
      // in a newer version is skipped (applied 0), so only success or failure is compared.
      if (building ? o.ok !== own.ok : outcomeKey(o) !== ownKey) {
        const why = o.ok ? `it applied a write the primary answered with: ${ownKey}` : `it failed a write: ${outcomeKey(o)}`;
        return this.#onDiverged(meta, shard, copy.worker, why);
      }
      return undefined;
    };
    const waited: Promise<void>[] = [];
    for (const { copy, answer, building } of sent) {
      const checked = answer.then((o) => check(copy, o, building));
      // A copy being built holds the write until it has loaded: it is checked, not waited for.
      if (!building) waited.push(checked);
    }
    await Promise.all(waited);
    if (own.ok) return own.value as ResultOf<O>;
    throw own.error;
  }

  /** Keeps `p` (which never rejects) in the shard's set of `map` until it settles. */
  #track(map: Map<string, Set<Promise<unknown>>>, key: string, p: Promise<unknown>): void {
    let set = map.get(key);
    if (set === undefined) map.set(key, (set = new Set()));
    const s = set;
    s.add(p);
    void p.finally(() => {
      s.delete(p);
      if (s.size === 0 && map.get(key) === s) map.delete(key);
    });
  }

  static #settled(set: Set<Promise<unknown>> | undefined): Promise<void> {
    return set === undefined ? Promise.resolve() : Promise.allSettled([...set]).then(() => undefined);
  }

  /**
   * Resolves once every write to the shard's primary that is in flight now has answered (a copy
   * about to be built reads LMDB after them; later writes reach it directly).
   */
  writesSettled(meta: CollectionMeta, shard: number): Promise<void> {
    return ShardRouter.#settled(this.#writes.get(`${meta.id}/${shard}`));
  }

  /**
   * Resolves once every write to the shard in flight now has answered on every copy, those being
   * built included (a copy just made Active was not waited for by the writes sent while it was
   * built: the workers read it once these are applied there).
   */
  writesApplied(meta: CollectionMeta, shard: number): Promise<void> {
    return ShardRouter.#settled(this.#applied.get(`${meta.id}/${shard}`));
  }

  /** A read to one named copy (cluster info asks each copy). */
  callOn<O extends ShardOp>(worker: number, meta: CollectionMeta, shard: number, req: ShardCall<O>): Promise<ResultOf<O>> {
    return this.#send<O>(worker, { ...req, collection: meta.id, shard } as unknown as RequestOf<O>);
  }

  /** The same request to every shard of the collection (one copy each), results in shard order. */
  fanOut<O extends ShardOp>(meta: CollectionMeta, req: ShardCall<O>): Promise<ResultOf<O>[]> {
    const calls: Promise<ResultOf<O>>[] = [];
    for (let s = 0; s < meta.config.shard_number; s++) calls.push(this.call(meta, s, req));
    return Promise.all(calls);
  }

  /**
   * Control messages to every worker holding a copy of one of the collection's shards (of `table`,
   * or the collection's current one), one per worker and role: `secondary` says whether those
   * shards are read copies there.
   */
  async control(meta: CollectionMeta, make: (shards: number[], secondary: boolean) => RequestOf<ControlOp>, table: ReplicaTable = this.table(meta)): Promise<void> {
    const groups = new Map<string, { worker: number; secondary: boolean; shards: number[] }>();
    table.shards.forEach((copies, s) => {
      copies.forEach((c, r) => {
        const k = `${c.worker}/${r > 0}`;
        const g = groups.get(k);
        if (g === undefined) groups.set(k, { worker: c.worker, secondary: r > 0, shards: [s] });
        else g.shards.push(s);
      });
    });
    await Promise.all([...groups.values()].map((g) => this.#dispatcher.call(g.worker, make(g.shards, g.secondary))));
  }

  /** One control message to one worker. */
  controlOn<O extends ControlOp>(worker: number, req: RequestOf<O>): Promise<ResultOf<O>> {
    return this.#dispatcher.call<O>(worker, req);
  }

  /** Requests sent so far, per worker and op (reads and writes, every copy counted). */
  sentCounts(): { worker: number; op: string; count: number }[] {
    const out: { worker: number; op: string; count: number }[] = [];
    this.#sent.forEach((m, worker) => {
      for (const [op, count] of m) out.push({ worker, op, count });
    });
    return out;
  }

  saveIndexes(worker: number): Promise<ResultOf<'saveIndexes'>> {
    return this.#dispatcher.call<'saveIndexes'>(worker, { op: 'saveIndexes' });
  }

  ping(worker: number): Promise<ResultOf<'ping'>> {
    return this.#dispatcher.call<'ping'>(worker, { op: 'ping' });
  }

  memory(worker: number): Promise<ResultOf<'memory'>> {
    return this.#dispatcher.call<'memory'>(worker, { op: 'memory' });
  }

  issues(worker: number, clear: boolean): Promise<ResultOf<'issues'>> {
    return this.#dispatcher.call<'issues'>(worker, { op: 'issues', clear });
  }

  liveRecall(worker: number, keep: number[]): Promise<ResultOf<'liveRecall'>> {
    return this.#dispatcher.call<'liveRecall'>(worker, { op: 'liveRecall', keep });
  }
}
