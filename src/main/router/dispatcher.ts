// How the main thread reaches shard workers: the piscina implementation of ShardDispatcher
// (src/shared/dispatch.ts) (one single-thread pool per worker, so a shard's tasks always reach the thread
// that owns it). The interface is what lets tests swap in a dispatcher without threads.
// The piscina dispatcher also wires the workers to each other (one MessageChannel per pair, so
// a coordinating worker reaches its siblings without the main thread), hands whole point
// requests to a coordinating worker, and pushes the catalog to every worker.

import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { QuiverError } from '../../shared/errors.js';
import { OpIdCounter } from '../../shared/op-ids.js';
import { CoordinatorTurns, type CoordinatorView } from './coordinator-choice.js';
import { HandoffChannel } from './handoff-channel.js';
import type { Coordinators, LoadProgress, ShardDispatcher } from '../../shared/dispatch.js';
import type { ClusterStateSnapshot } from '../../shared/cluster/state-view.js';
import { BatchedPort } from '../../shared/batched-port.js';
import { ROUTED_CALL_WIRE, ROUTED_UNSENDABLE } from '../../shared/routed-calls.js';
import { BUSY, BUSY_SLOTS, BUSY_STALE_MS, COUNTED_OPS, LOAD_PROGRESS, LOAD_PROGRESS_SLOTS, PROTOCOL_VERSION, type HnswBuildMode, type Op, type RequestOf, type ResultOf, type WorkerInit, type WorkerReply } from '../../shared/protocol.js';
import { RATE_BUCKET_BYTES } from '../../shared/rate-buckets.js';
import { MAX_BATCH, type CatalogSnapshot, type AnyHandoffRequest, type HandoffReplyOf, type PeerPort, type RoutedCall, type WorkerTask } from '../../shared/coordination.js';

/** A worker's WorkerInit.cluster: the internal port is worker 0's alone. */
function clusterInitOf(cluster: NonNullable<WorkerInit['cluster']>, worker: number): NonNullable<WorkerInit['cluster']> {
  if (worker === 0 || cluster.internal === undefined) return cluster;
  const { internal: _, ...rest } = cluster;
  return rest;
}

function unwrap<O extends Op>(reply: WorkerReply): ResultOf<O> {
  if (reply.ok) return reply.result as ResultOf<O>;
  throw QuiverError.fromWire(reply.error);
}

/** Each worker's young generation (V8 sizes its semi-spaces at about a third of it). */
const WORKER_YOUNG_GENERATION_MB = 8;

const WORKER_FILE = fileURLToPath(new URL('../../workers/entry.js', import.meta.url));

/**
 * Emits 'workerExit' (worker index) when a worker thread ends other than at close; piscina starts
 * a new one, which loads the same shards from LMDB before it takes a task (entry.ts). The tasks in
 * flight on the dead thread fail with ShardUnavailable. Emits 'workerError' (worker index, error)
 * for a failure piscina cannot pin on a task.
 */
export class PiscinaDispatcher extends EventEmitter implements ShardDispatcher, Coordinators {
  readonly workerCount: number;
  /** The operation id counter the workers share with the main thread's Engine. */
  readonly opIds: OpIdCounter;
  readonly #pools: Piscina<WorkerTask, WorkerReply | null>[];
  /** The hand-off channel to each worker (replaced with the thread). */
  readonly #channels: (HandoffChannel | null)[];
  readonly #progress: Int32Array;
  /** Each worker's event-loop utilization, as it publishes it (src/workers/busy-meter.ts). */
  readonly #busy: Int32Array;
  /** The workers holding a copy of a collection's shards, by collection name (setOwners). */
  #owners: (collection: string) => readonly number[] | null = () => null;
  /** WorkerInit.listening. */
  readonly #listening = new Int32Array(new SharedArrayBuffer(4));
  readonly #turns: CoordinatorTurns;
  /** One view per worker, refreshed in place for each choice. */
  readonly #views: CoordinatorView[];
  /** WorkerInit.served: requests each worker served, by op (each slot written by its worker only). */
  readonly #served: Float64Array;
  #catalog: CatalogSnapshot | null = null;
  /** Cluster mode: the control plane's state last published (a replaced thread gets it). */
  #clusterState: ClusterStateSnapshot | null = null;
  /** Shard calls the main thread's router makes for a coordinator (writes of collections with copies: setCallRouter). */
  #routeCall: (w: RoutedCall) => Promise<WorkerReply> = () => Promise.resolve({ ok: false, error: QuiverError.internal('no call router is set').toWire() });
  /** WorkerInit.hedged: reads each worker's coordinator hedged (cluster mode). */
  readonly #hedged: Float64Array;
  #closing = false;

  constructor(
    workerCount: number,
    dataDir: string,
    hnswBuild: HnswBuildMode = 'auto',
    graphSave: WorkerInit['graphSave'] = { everyWrites: 0, everySeconds: 0 },
    opIds: OpIdCounter = new OpIdCounter(),
    cluster?: WorkerInit['cluster'],
    slowQuerySecs?: number,
    liveRecallFraction?: number,
  ) {
    super();
    this.workerCount = workerCount;
    this.opIds = opIds;
    this.#channels = new Array<HandoffChannel | null>(workerCount).fill(null);
    this.#turns = new CoordinatorTurns(workerCount, MAX_BATCH);
    this.#views = Array.from({ length: workerCount }, () => ({ open: false, busy: 1000 }));
    // Written by the workers while they load (no message: a loading worker answers none).
    // A total of -1 means "not counted yet".
    const progress = new SharedArrayBuffer(workerCount * LOAD_PROGRESS_SLOTS * 4);
    this.#progress = new Int32Array(progress);
    for (let w = 0; w < workerCount; w++) this.#progress[w * LOAD_PROGRESS_SLOTS + LOAD_PROGRESS.shardsTotal] = -1;
    const busy = new SharedArrayBuffer(workerCount * BUSY_SLOTS * 4);
    this.#busy = new Int32Array(busy);
    const served = new SharedArrayBuffer(workerCount * COUNTED_OPS.length * 8);
    this.#served = new Float64Array(served);
    const hedged = new SharedArrayBuffer(workerCount * 8);
    const rateBuckets = new SharedArrayBuffer(RATE_BUCKET_BYTES);
    this.#hedged = new Float64Array(hedged);
    this.#pools = Array.from({ length: workerCount }, (_, workerIndex) => {
      const init: WorkerInit = {
        protocolVersion: PROTOCOL_VERSION,
        workerIndex,
        workerCount,
        dataDir,
        hnswBuild,
        graphSave,
        progress,
        opIds: opIds.buffer,
        busy,
        served,
        processOrigin: performance.timeOrigin,
        ...(slowQuerySecs === undefined ? {} : { slowQuerySecs }),
        ...(liveRecallFraction === undefined ? {} : { liveRecallFraction }),
        rateBuckets,
        listening: this.#listening.buffer as SharedArrayBuffer,
        ...(cluster === undefined ? {} : { cluster: clusterInitOf(cluster, workerIndex), hedged }),
      };
      const pool = new Piscina<WorkerTask, WorkerReply | null>({
        filename: WORKER_FILE,
        minThreads: 1,
        maxThreads: 1,
        // Shard owners hold state: never reap them for being idle.
        idleTimeout: Number.POSITIVE_INFINITY,
        // Writes await LMDB commits; let reads proceed meanwhile. Order is kept because every
        // handler mutates memory synchronously before its first await.
        concurrentTasksPerWorker: 64,
        // No blocking Atomics.wait loop in an idle worker: LMDB commits must keep resolving.
        atomics: 'disabled',
        // V8's default young generation (up to 48 MiB at 16 MiB semi-spaces) stays committed
        // after a burst; shard workers keep little short-lived data alive. Measured at 100k x 128,
        // 2 workers, under search load: RssAnon 243-246 MiB against 286-296 MiB at 48 MiB, CPU
        // per query 0.77-0.91 ms against 0.74-0.89 ms (+3%, within the noise).
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
        workerData: init,
      });
      pool.on('error', (err: unknown) => {
        const channel = this.#channels[workerIndex];
        if (channel !== null && channel !== undefined) channel.reason = err instanceof Error ? err.message : String(err);
        this.emit('workerError', workerIndex, err);
      });
      pool.on('workerDestroy', () => {
        if (this.#closing) return;
        // The new thread piscina starts gets fresh channels to every sibling, and they to it
        // (on the next turn: during this event the pool still holds the dying thread).
        setImmediate(() => {
          if (!this.#closing) this.#connect(workerIndex);
        });
        this.emit('workerExit', workerIndex);
      });
      return pool;
    });
    // Queued until each thread has loaded its shards; hand-offs wait in the worker for theirs.
    for (let w = 0; w < workerCount; w++) this.#connect(w, w + 1);
  }

  /** Channels between worker `w` and the siblings from `from` on (all of them by default). */
  #connect(w: number, from = 0): void {
    const own: PeerPort[] = [];
    const transfer: MessagePort[] = [];
    for (let peer = from; peer < this.workerCount; peer++) {
      if (peer === w) continue;
      const { port1, port2 } = new MessageChannel();
      own.push({ worker: peer, port: port1 });
      transfer.push(port1);
      this.#control(peer, { op: 'attachPeers', peers: [{ worker: w, port: port2 }], main: null, writes: null, catalog: null, cluster: null }, [port2]);
    }
    const { port1, port2 } = new MessageChannel();
    this.#channels[w] = new HandoffChannel(w, port1);
    // The coordinator's shard calls for writes of collections with copies, served by this thread's router
    // (kept alive by its listener on the port; it closes with the thread).
    const writes = new MessageChannel();
    new BatchedPort(writes.port1, { wire: ROUTED_CALL_WIRE, serve: (req) => this.#routeCall(req), unsendable: ROUTED_UNSENDABLE });
    this.#control(w, { op: 'attachPeers', peers: own, main: port2, writes: writes.port2, catalog: this.#catalog, cluster: this.#clusterState }, [...transfer, port2, writes.port2]);
  }

  #control(w: number, task: WorkerTask, transfer: MessagePort[]): void {
    const pool = this.#pools[w];
    if (pool === undefined) return;
    // A thread that dies first gets its own channels again at its replacement (workerDestroy).
    try {
      pool.run(task, { transferList: transfer }).catch(() => undefined);
    } catch {
      /* the pool is closing */
    }
  }

  /** Tells the workers REST is listening (WorkerInit.listening: for the load_delay_ms failpoint). */
  markListening(): void {
    Atomics.store(this.#listening, 0, 1);
    Atomics.notify(this.#listening, 0);
  }

  loadProgress(): LoadProgress {
    const out: LoadProgress = { shardsLoaded: 0, shardsTotal: 0, points: 0, workersCounting: 0 };
    for (let w = 0; w < this.workerCount; w++) {
      const at = w * LOAD_PROGRESS_SLOTS;
      const total = Atomics.load(this.#progress, at + LOAD_PROGRESS.shardsTotal);
      if (total < 0) out.workersCounting++;
      else out.shardsTotal += total;
      out.shardsLoaded += Atomics.load(this.#progress, at + LOAD_PROGRESS.shardsLoaded);
      out.points += Atomics.load(this.#progress, at + LOAD_PROGRESS.points);
    }
    return out;
  }

  servedCounts(): { worker: number; op: string; count: number }[] {
    const out: { worker: number; op: string; count: number }[] = [];
    for (let w = 0; w < this.workerCount; w++) {
      COUNTED_OPS.forEach((op, i) => {
        const count = this.#served[w * COUNTED_OPS.length + i]!;
        if (count > 0) out.push({ worker: w, op, count });
      });
    }
    return out;
  }

  async call<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const pool = this.#pools[worker];
    if (pool === undefined) throw QuiverError.internal(`no worker ${worker}`);
    try {
      // A shard request is answered with a WorkerReply (entry.ts).
      const reply = (await pool.run(req, transfer && transfer.length > 0 ? { transferList: transfer } : {})) as WorkerReply;
      return unwrap<O>(reply);
    } catch (err) {
      if (err instanceof QuiverError) throw err;
      throw new QuiverError('ShardUnavailable', `Worker ${worker} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Tells the dispatcher where each collection's shard copies are, for the choice of coordinator. */
  setOwners(lookup: (collection: string) => readonly number[] | null): void {
    this.#owners = lookup;
  }

  async handoff<R extends AnyHandoffRequest>(req: R): Promise<{ reply: HandoffReplyOf<R>; worker: number }> {
    const name = req.params.collection_name;
    const owners = typeof name === 'string' ? this.#owners(name) : null;
    // A collection's routed writes all go to one coordinator, which sends their shard calls to this
    // thread in the order they arrived (as this thread used to run them); the first holder of a copy.
    const pinned = req.routeCalls === true ? (owners?.find((w) => this.#channels[w]?.open === true) ?? -1) : -1;
    const worker = pinned >= 0 ? pinned : this.#pickCoordinator(owners);
    const channel = this.#channels[worker];
    if (channel === null || channel === undefined || !channel.open) throw new QuiverError('ShardUnavailable', 'No worker can take requests: every thread is being replaced');
    return { reply: await channel.send(req), worker };
  }

  /** A worker's event-loop utilization in per-mille; a reading gone stale (the loop is stuck) counts as full. */
  #busyOf(w: number): number {
    const at = w * BUSY_SLOTS;
    const age = (Date.now() % 2 ** 31) - Atomics.load(this.#busy, at + BUSY.at);
    return age >= 0 && age <= BUSY_STALE_MS ? Atomics.load(this.#busy, at + BUSY.perMille) : 1000;
  }

  /**
   * The coordinator with the most room (coordinator-choice.ts); a thread being replaced is skipped.
   * A turn lasts up to MAX_BATCH requests, one hand-off batch.
   */
  #pickCoordinator(owners: readonly number[] | null): number {
    const views = this.#views;
    for (let w = 0; w < views.length; w++) {
      const c = this.#channels[w];
      views[w]!.open = c !== null && c !== undefined && c.open;
      views[w]!.busy = this.#busyOf(w);
    }
    const best = this.#turns.pick(views, owners);
    return best < 0 ? this.#turns.next : best;
  }

  async publishCatalog(snapshot: CatalogSnapshot): Promise<void> {
    this.#catalog = snapshot;
    // A thread that fails to take it is being replaced, and its replacement gets the latest.
    await Promise.allSettled(this.#pools.map((pool) => pool.run({ op: 'catalog', catalog: snapshot })));
  }
  /**
   * Cluster mode: gives every coordinator the control plane's state (the replicas and peers its
   * cluster engine reads); not waited for, and a newer one replaces an older one in the worker.
   */
  publishClusterState(state: ClusterStateSnapshot): void {
    this.#clusterState = state;
    for (let w = 0; w < this.workerCount; w++) this.#control(w, { op: 'clusterState', state }, []);
  }

  /** Who serves the coordinators' routed shard calls (the Engine: routeCall). */
  setCallRouter(route: (w: RoutedCall) => Promise<WorkerReply>): void {
    this.#routeCall = route;
  }

  /** Cluster mode: reads the workers' coordinators sent to a second replica (hedged), summed. */
  hedgedReads(): number {
    let n = 0;
    for (const v of this.#hedged) n += v;
    return n;
  }


  async close(): Promise<void> {
    this.#closing = true;
    for (const c of this.#channels) c?.close();
    await Promise.all(this.#pools.map((p) => p.close()));
  }
}

export type { Coordinators, LoadProgress, ShardDispatcher };
