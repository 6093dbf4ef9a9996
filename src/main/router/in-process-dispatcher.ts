// The in-process ShardDispatcher: one ShardHost per worker index, called directly on this thread,
// over the same LMDB data dir the piscina workers would open. For tests (and for embedding
// Quiver without threads). Apart from server.ts's start-up check of the hnswlib build, it is the
// one file under src/main that imports src/workers: the product reaches shards only through
// piscina (dispatcher.ts), and this file imports no piscina, so tests load it without a thread.
//
// It keeps what the thread boundary guarantees, so a service behaves as it does over the pool:
// - the hosts load their shards from LMDB before the first call, as entry.ts does at start;
// - requests and results are structured-cloned (vectors transferred, as the pool transfers them),
//   so neither side holds on to the other's objects;
// - a handler's error reaches the caller rebuilt from its wire form (`{code, message}`), a
//   non-QuiverError as Internal, exactly as the worker entry and the piscina dispatcher pass it.
// What it does not model: thread crashes and restarts (a NotCommittedError is passed on, the
// host is not reloaded), so it never emits 'workerExit' or 'workerError'. The *.workers tests
// cover those.

import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { openDb, type QuiverDb } from '../../shared/db.js';
import { QuiverError } from '../../shared/errors.js';
import type { Op, RequestOf, ResultOf } from '../../shared/protocol.js';
import { ShardHost } from '../../workers/shard-host.js';
import type { ShardDispatcher } from './dispatcher.js';

export class InProcessDispatcher extends EventEmitter implements ShardDispatcher {
  readonly workerCount: number;
  readonly #db: QuiverDb;
  readonly #hosts: ShardHost[];
  #closed = false;

  constructor(workerCount: number, dataDir: string) {
    super();
    this.workerCount = workerCount;
    // One environment for every host: the worker threads each open the same one.
    this.#db = openDb(dataDir);
    this.#hosts = Array.from({ length: workerCount }, (_, w) => {
      const host = new ShardHost(w, workerCount, this.#db, join(dataDir, 'hnsw'));
      host.loadAll();
      return host;
    });
  }

  async call<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const host = this.#hosts[worker];
    if (host === undefined || this.#closed) throw QuiverError.internal(`no worker ${worker}`);
    const sent = structuredClone(req, transfer && transfer.length > 0 ? { transfer } : undefined);
    let result: ResultOf<Op>;
    try {
      result = await host.handle(sent);
    } catch (err) {
      throw QuiverError.fromWire(QuiverError.toWire(err));
    }
    // The host's handler for req.op answers ResultOf<O>; handle() is typed over every op.
    return structuredClone(result) as ResultOf<O>;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#db.root.close();
  }
}
