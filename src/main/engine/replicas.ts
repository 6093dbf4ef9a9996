// Copies of shards (replication_factor): each collection's replica table (plain data in
// src/shared/placement.ts: which worker holds which copy, and whether it serves reads) and the
// transitions of its copies: created Active with the collection or loaded at start; added
// Partial by a PATCH (or rebuilt after it diverged or its worker died), Active once loaded;
// dropped by a PATCH or with the collection. The ShardRouter built here reads the table on every
// request; it is the one router that writes replicated collections.
//
// The coordinating workers read replicated collections too, over the table published in the
// catalog snapshot; only writes of those collections stay on this thread's router (one write
// order per shard: src/main/coordinator/replica-aware.ts). What a worker may read follows two
// rules, so a read that starts after a write answered (wait=true) sees it on any copy:
// - a copy is published Active only after this router waits for it on every write and every
//   write sent before (while it was built, not waited for) has been applied there;
// - a copy that is dropped is published out of reads first, while this router still writes it
//   and waits for it; reads already sent to it meet either the full copy or, once it is gone,
//   a retryable ShardUnavailable (src/workers/shard-host.ts) and go to another Active copy.
// A copy that diverged or whose worker died is published out of reads as soon as that is known.

import { copyWorker, effectiveReplicas, replicaTable, type ReplicaTable, type ShardCopy } from '../../shared/placement.js';
import { ShardRouter } from '../../shared/shard-router.js';
import type { CollectionMeta } from '../../shared/types.js';
import type { ShardInfo } from '../../shared/shard-reports.js';
import type { ShardDispatcher } from '../router/dispatcher.js';
import type { Catalog } from './catalog.js';
import type { EngineEvents } from './events.js';
import type { HandedOffWrites } from './handed-off.js';
import type { CatalogPublisher } from './publish.js';

/** Times one copy is rebuilt after diverging before it is left Dead (until a restart or PATCH). */
const MAX_REBUILDS = 3;

/** One copy of one shard, as cluster info reports it. */
export interface CopyInfo {
  shard: number;
  copy: number;
  worker: number;
  state: ShardCopy['state'];
  points: number;
}

export interface ReplicasOptions {
  dispatcher: ShardDispatcher;
  catalog: Catalog;
  /** The replica tables by collection id: filled here, read by the publisher too. */
  tables: Map<number, ReplicaTable>;
  publisher: CatalogPublisher;
  events: EngineEvents;
  /** Writes of a collection handed off to the workers and not yet answered (a copy built waits for them). */
  handedOff: Pick<HandedOffWrites, 'settled'>;
  /**
   * Cluster mode: replication_factor counts replicas on distinct nodes (the controller's), so a
   * node keeps one copy of each shard, whatever its worker count.
   */
  onePerNode: boolean;
}

export class Replicas {
  /** The router over these tables: every point request and control message of this thread. */
  readonly router: ShardRouter;
  readonly #dispatcher: ShardDispatcher;
  readonly #catalog: Catalog;
  readonly #tables: Map<number, ReplicaTable>;
  readonly #publisher: CatalogPublisher;
  readonly #events: EngineEvents;
  readonly #handedOff: Pick<HandedOffWrites, 'settled'>;
  readonly #onePerNode: boolean;
  /** Rebuilds after divergence, per `collection/shard/worker`. */
  readonly #rebuilds = new Map<string, number>();
  /** Copy transitions on their way to the workers' catalog (cluster info waits for them). */
  readonly #transitions = new Set<Promise<void>>();

  constructor(opts: ReplicasOptions) {
    this.#dispatcher = opts.dispatcher;
    this.#catalog = opts.catalog;
    this.#tables = opts.tables;
    this.#publisher = opts.publisher;
    this.#events = opts.events;
    this.#handedOff = opts.handedOff;
    this.#onePerNode = opts.onePerNode;
    this.router = new ShardRouter(opts.dispatcher, (meta) => this.#tables.get(meta.id), -1, (meta, shard, worker, why) => this.#diverged(meta, shard, worker, why));
  }

  /** The replica table of a collection: plain data, for the router and whoever mirrors the catalog. */
  table(meta: CollectionMeta): ReplicaTable {
    return this.router.table(meta);
  }

  /** The table kept for collection `id`, if any. */
  get(id: number): ReplicaTable | undefined {
    return this.#tables.get(id);
  }

  /**
   * The workers holding a copy of any of the collection's shards (the dispatcher prefers them as
   * coordinators), or null for a collection unknown here. Read per request: a few entries.
   */
  copyHolders(name: string): readonly number[] | null {
    const entry = this.#catalog.get(name);
    const table = entry === undefined ? undefined : this.#tables.get(entry.id);
    if (table === undefined) return null;
    const holders: number[] = [];
    for (const copies of table.shards) for (const { worker, state } of copies) if (state === 'Active' && !holders.includes(worker)) holders.push(worker);
    return holders;
  }

  /**
   * Whether the collection keeps more than one copy of its shards now (its writes then go through
   * this thread's router, whatever its configuration says while copies are added or dropped).
   */
  hasCopies(meta: CollectionMeta): boolean {
    return (this.#tables.get(meta.id)?.shards[0]?.length ?? 1) > 1;
  }

  /** How many copies of each shard the collection keeps: replication_factor, at most one per worker. */
  effectiveReplicas(meta: CollectionMeta): number {
    return effectiveReplicas(this.#localFactor(meta), this.#dispatcher.workerCount);
  }

  /**
   * The replication_factor copies are made of here: in cluster mode it counts replicas on distinct
   * nodes (the controller's), so a node keeps one copy of each shard, whatever its worker count.
   */
  #localFactor(meta: CollectionMeta): number | undefined {
    return this.#onePerNode ? 1 : meta.config.replication_factor;
  }

  /** A new table for the collection, every copy Active (created, or loaded at start). */
  newTable(meta: CollectionMeta): ReplicaTable {
    const t = replicaTable(meta.id, meta.config.shard_number, this.#localFactor(meta), this.#dispatcher.workerCount);
    this.#tables.set(meta.id, t);
    return t;
  }

  /** Forgets the collection's table (requests stop reaching its copies); answers it. */
  remove(id: number): ReplicaTable | undefined {
    const table = this.#tables.get(id);
    this.#tables.delete(id);
    return table;
  }

  /**
   * Publishes a copy transition in the background; cluster info waits for it (copies()). The
   * promise returned resolves when the workers have it (never rejects: a failure is logged).
   */
  #publishTransition(before: Promise<void> = Promise.resolve()): Promise<void> {
    const p = before.then(() => this.#publisher.publish());
    this.#transitions.add(p);
    return p.finally(() => this.#transitions.delete(p)).catch((err: unknown) => this.#events.backgroundError(err, 'publishing a shard copy change to the workers'));
  }

  /**
   * Brings the copies to the configured count. New copies receive writes at once and serve reads
   * once built (in the background: the PATCH does not wait, as Qdrant's replica transfer);
   * removed copies stop at once and their worker drops them (memory only).
   */
  async resize(meta: CollectionMeta): Promise<void> {
    const table = this.#tables.get(meta.id);
    if (table === undefined) return;
    const want = this.effectiveReplicas(meta);
    const have = table.shards[0]?.length ?? 1;
    if (want === have) return;
    const workerCount = this.#dispatcher.workerCount;
    if (want < have) {
      // Out of the workers' reads first, while this router still writes them and waits for them.
      await this.#publisher.publish(new Set(table.shards.flatMap((copies) => copies.slice(want))));
      const drops = new Map<number, number[]>();
      table.shards.forEach((copies, s) => {
        for (const c of copies.splice(want)) drops.set(c.worker, [...(drops.get(c.worker) ?? []), s]);
      });
      this.logCopies(meta, 'lowered');
      await Promise.all([...drops].map(([w, shards]) => this.router.controlOn<'dropShards'>(w, { op: 'dropShards', collection: meta.id, shards })));
      return;
    }
    table.shards.forEach((copies, s) => {
      for (let r = have; r < want; r++) {
        const copy: ShardCopy = { worker: copyWorker(meta.id, s, r, workerCount), state: 'Partial' };
        copies.push(copy);
        this.#build(meta, s, copy);
      }
    });
    this.logCopies(meta, 'raised');
  }

  /**
   * (Re)builds a read copy: opened held, so every write from now on reaches it and waits there;
   * loaded from LMDB once the writes in flight before it have answered (so LMDB has them); the
   * held writes then apply in order (the replay guard makes one already loaded harmless). Active
   * when done, unless it was dropped or rebuilt again meanwhile.
   */
  #build(meta: CollectionMeta, shard: number, copy: ShardCopy): void {
    copy.state = 'Partial';
    // In the same turn as the state change: no write is sent between them.
    const opened = this.router.controlOn<'openShards'>(copy.worker, { op: 'openShards', meta, shards: [shard], secondary: true, hold: true });
    const earlier = Promise.all([this.router.writesSettled(meta, shard), this.#handedOff.settled(meta.name)]);
    void (async () => {
      await opened;
      await earlier;
      await this.router.controlOn<'loadShards'>(copy.worker, { op: 'loadShards', collection: meta.id, shards: [shard] });
    })().then(
      () => {
        if (copy.state !== 'Partial' || !this.#holds(meta.id, copy)) return;
        // Waited for by every write from now on; the workers read it once the writes sent while it
        // was built (not waited for) are applied there too.
        copy.state = 'Active';
        void this.#publishTransition(this.router.writesApplied(meta, shard));
        this.#events.replicaEvent('info', 'shard copy built: serving reads', { collection: meta.name, shard, worker: copy.worker });
      },
      (err: unknown) => {
        if (!this.#holds(meta.id, copy)) return;
        copy.state = 'Dead';
        void this.#publishTransition();
        this.#events.replicaEvent('error', 'shard copy failed to build: it serves no reads', { collection: meta.name, shard, worker: copy.worker, err });
      },
    );
  }

  /** Whether `copy` is still one of the collection's copies (not dropped by a PATCH or DELETE). */
  #holds(collection: number, copy: ShardCopy): boolean {
    return this.#tables.get(collection)?.shards.some((copies) => copies.includes(copy)) === true;
  }

  /** A copy answered a write otherwise than its primary: out of reads, then rebuilt. */
  #diverged(meta: CollectionMeta, shard: number, worker: number, why: string): Promise<void> {
    const copy = this.#tables.get(meta.id)?.shards[shard]?.find((c, r) => r > 0 && c.worker === worker);
    // Out of reads already (its worker died, say): the write waits for that news to reach the workers.
    if (copy === undefined || copy.state === 'Dead') return Promise.allSettled([...this.#transitions]).then(() => undefined);
    copy.state = 'Dead';
    const key = `${meta.id}/${shard}/${worker}`;
    const n = (this.#rebuilds.get(key) ?? 0) + 1;
    this.#rebuilds.set(key, n);
    const rebuild = n <= MAX_REBUILDS;
    this.#events.replicaEvent('error', `shard copy diverged from its primary: taken out of reads${rebuild ? ' and rebuilt' : `; left out after ${MAX_REBUILDS} rebuilds`}`, {
      collection: meta.name,
      shard,
      worker,
      reason: why,
    });
    if (rebuild) this.#build(this.#catalog.get(meta.name) ?? meta, shard, copy);
    // The write that found it answers once no worker reads it any more.
    return this.#publishTransition();
  }

  /**
   * A worker thread ended and a new one is loading its shards: its primaries serve no reads until
   * it answers (other copies do), its read copies are rebuilt (writes in flight on the old thread
   * were lost there). Called as the old thread ends: both copies are out of reads and writes at
   * once, and the new thread is asked on the next turn (during this event piscina still holds
   * the dying thread, and a task given to it now fails).
   */
  workerRestarted(worker: number): void {
    const primaries: ShardCopy[] = [];
    const copies: { meta: CollectionMeta; shard: number; copy: ShardCopy }[] = [];
    for (const e of this.#catalog.values()) {
      const table = this.#tables.get(e.id);
      if (table === undefined || e.deleting === true) continue;
      table.shards.forEach((cs, s) => {
        cs.forEach((c, r) => {
          if (c.worker !== worker || cs.length === 1) return;
          c.state = 'Dead';
          if (r === 0) primaries.push(c);
          else copies.push({ meta: e, shard: s, copy: c });
        });
      });
    }
    if (primaries.length === 0 && copies.length === 0) return;
    void this.#publishTransition();
    setImmediate(() => {
      for (const { meta, shard, copy } of copies) {
        // Not rebuilt already (diverged meanwhile) nor dropped.
        if (copy.state === 'Dead' && this.#holds(meta.id, copy)) this.#build(this.#catalog.get(meta.name) ?? meta, shard, copy);
      }
      if (copies.length > 0) void this.#publishTransition();
      if (primaries.length === 0) return;
      // The ping waits for the new thread's loads (its module loads them before taking a task).
      void this.router.ping(worker).then(
        () => {
          for (const c of primaries) if (c.state === 'Dead') c.state = 'Active';
          void this.#publishTransition();
        },
        (err: unknown) => this.#events.replicaEvent('error', 'worker did not come back: its primaries serve no reads', { worker, err }),
      );
    });
  }

  /** Reports the collection's copy count (`what`: created, loaded, raised, lowered). */
  logCopies(meta: CollectionMeta, what: string): void {
    this.#events.replicaEvent('info', `shard copies ${what}`, {
      collection: meta.name,
      replication_factor: meta.config.replication_factor ?? 1,
      copies_per_shard: this.effectiveReplicas(meta),
      workers: this.#dispatcher.workerCount,
    });
  }

  /** Every copy of every shard, with its state and (for Active ones) its point count. */
  async copies(meta: CollectionMeta): Promise<CopyInfo[]> {
    // A copy reported Active is one the workers read too.
    await Promise.allSettled([...this.#transitions]);
    const table = this.table(meta);
    const out: Promise<CopyInfo>[] = [];
    table.shards.forEach((copies, shard) => {
      copies.forEach((c, copy) => {
        // A copy being built holds its requests: it is not asked.
        const points = c.state === 'Active' ? this.router.callOn(c.worker, meta, shard, { op: 'count', filter: null, exact: false }) : Promise.resolve(0);
        out.push(points.then((n) => ({ shard, copy, worker: c.worker, state: c.state, points: n })));
      });
    });
    return Promise.all(out);
  }

  /** Each shard's figures from this node's first Active copy of it (a shard with none here is left out). */
  async localInfo(meta: CollectionMeta): Promise<ShardInfo[]> {
    await Promise.allSettled([...this.#transitions]);
    const out: Promise<ShardInfo>[] = [];
    this.table(meta).shards.forEach((copies, shard) => {
      const c = copies.find((x) => x.state === 'Active');
      if (c !== undefined) out.push(this.router.callOn(c.worker, meta, shard, { op: 'shardInfo' }));
    });
    return Promise.all(out);
  }

  /**
   * Cluster mode: the shards (`[collection id, shard]`) this node's workers follow (those it holds
   * a replica of), each on the worker holding it here; answers their positions by "<id>/<shard>".
   */
  async followShards(shards: readonly [number, number][]): Promise<Record<string, { applied: number; dead: string | null }>> {
    const byWorker: [number, number][][] = Array.from({ length: this.#dispatcher.workerCount }, () => []);
    for (const [c, s] of shards) {
      const w = this.#tables.get(c)?.shards[s]?.[0]?.worker;
      if (w !== undefined) byWorker[w]!.push([c, s]);
    }
    const parts = await Promise.all(byWorker.map((list, w) => this.router.controlOn<'followShards'>(w, { op: 'followShards', shards: list })));
    return Object.assign({}, ...parts) as Record<string, { applied: number; dead: string | null }>;
  }
}
