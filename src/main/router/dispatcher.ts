// How the main thread reaches shard workers: the ShardDispatcher interface and its piscina
// implementation (one single-thread pool per worker, so a shard's tasks always reach the thread
// that owns it). The interface is what lets tests swap in a dispatcher without threads.

import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { QuiverError } from '../../shared/errors.js';
import { LOAD_PROGRESS, LOAD_PROGRESS_SLOTS, PROTOCOL_VERSION, type HnswBuildMode, type Op, type RequestOf, type ResultOf, type ShardRequest, type WorkerInit, type WorkerReply } from '../../shared/protocol.js';

/** How far the workers are in loading their shards at start (summed over workers). */
export interface LoadProgress {
  shardsLoaded: number;
  shardsTotal: number;
  points: number;
  /** Workers that have not yet counted their shards (their total is still unknown). */
  workersCounting: number;
}

export interface ShardDispatcher {
  readonly workerCount: number;
  /** Start-up progress, for /readyz; absent when the dispatcher loads before it is returned (in-process). */
  loadProgress?(): LoadProgress;
  call<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>>;
  close(): Promise<void>;
}

function unwrap<O extends Op>(reply: WorkerReply): ResultOf<O> {
  if (reply.ok) return reply.result as ResultOf<O>;
  throw QuiverError.fromWire(reply.error);
}

const WORKER_FILE = fileURLToPath(new URL('../../workers/entry.js', import.meta.url));

/**
 * Emits 'workerExit' (worker index) when a worker thread ends other than at close; piscina starts
 * a new one, which loads the same shards from LMDB before it takes a task (entry.ts). The tasks in
 * flight on the dead thread fail with ShardUnavailable. Emits 'workerError' (worker index, error)
 * for a failure piscina cannot pin on a task.
 */
export class PiscinaDispatcher extends EventEmitter implements ShardDispatcher {
  readonly workerCount: number;
  readonly #pools: Piscina<ShardRequest, WorkerReply>[];
  readonly #progress: Int32Array;
  #closing = false;

  constructor(
    workerCount: number,
    dataDir: string,
    hnswBuild: HnswBuildMode = 'auto',
    graphSave: WorkerInit['graphSave'] = { everyWrites: 0, everySeconds: 0 },
  ) {
    super();
    this.workerCount = workerCount;
    // Written by the workers while they load (no message: a loading worker answers none).
    // A total of -1 means "not counted yet".
    const progress = new SharedArrayBuffer(workerCount * LOAD_PROGRESS_SLOTS * 4);
    this.#progress = new Int32Array(progress);
    for (let w = 0; w < workerCount; w++) this.#progress[w * LOAD_PROGRESS_SLOTS + LOAD_PROGRESS.shardsTotal] = -1;
    this.#pools = Array.from({ length: workerCount }, (_, workerIndex) => {
      const init: WorkerInit = { protocolVersion: PROTOCOL_VERSION, workerIndex, workerCount, dataDir, hnswBuild, graphSave, progress };
      const pool = new Piscina<ShardRequest, WorkerReply>({
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
        workerData: init,
      });
      pool.on('error', (err: unknown) => this.emit('workerError', workerIndex, err));
      pool.on('workerDestroy', () => {
        if (!this.#closing) this.emit('workerExit', workerIndex);
      });
      return pool;
    });
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

  async call<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const pool = this.#pools[worker];
    if (pool === undefined) throw QuiverError.internal(`no worker ${worker}`);
    try {
      const reply = await pool.run(req, transfer && transfer.length > 0 ? { transferList: transfer } : {});
      return unwrap<O>(reply);
    } catch (err) {
      if (err instanceof QuiverError) throw err;
      throw new QuiverError('ShardUnavailable', `Worker ${worker} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#pools.map((p) => p.close()));
  }
}
