// Shard worker entry (one piscina thread). It owns the shards the router assigns to its index,
// loads them from LMDB before answering anything (top-level await: piscina holds tasks until
// the module is ready), then serves the typed protocol of src/shared/protocol.ts: shard requests
// (from the main thread, or from a sibling over a direct channel) and, as a coordinating worker,
// whole point requests handed off by the main thread (src/workers/coordinator/).

import { join } from 'node:path';
import { workerData } from 'piscina';
import { openDb } from '../shared/db.js';
import { QuiverError } from '../shared/errors.js';
import { OpIdCounter } from '../shared/op-ids.js';
import { failpoint } from './failpoints.js';
import { MemoryRelease } from '../shared/memory-release.js';
import { PROTOCOL_VERSION, type ShardRequest, type WorkerInit, type WorkerReply, type WorkerTask } from '../shared/protocol.js';
import { Coordinator } from './coordinator/coordinator.js';
import { selectHnswlib } from './index/hnswlib-loader.js';
import { ShardHost } from './shard-host.js';
import { NotCommittedError } from './shard/shard.js';

const init = workerData as WorkerInit;
if (init.protocolVersion !== PROTOCOL_VERSION) {
  throw new Error(`worker protocol ${PROTOCOL_VERSION} cannot serve a main thread speaking ${init.protocolVersion}`);
}

// Before any graph is built or read; in mode 'native' an unusable native build stops start-up here.
selectHnswlib(init.hnswBuild);

const host = new ShardHost(init.workerIndex, init.workerCount, openDb(init.dataDir), join(init.dataDir, 'hnsw'), {
  savePolicy: init.graphSave,
  ...(init.progress === undefined ? {} : { progress: init.progress }),
});
host.loadAll();
// The load's garbage (decoded records, rows staged until the graphs took over) goes back once
// the thread has answered its first tasks; later bursts (ingest) when the thread is quiet.
new MemoryRelease().collectSoon(200);

const crashOnId = failpoint('crash_on_id');

/** One shard request, whoever sent it (the main thread, a sibling, or this worker's coordinator). */
async function serveShard(req: ShardRequest): Promise<WorkerReply> {
  if (crashOnId !== null && req.op === 'upsert' && req.batch.ids.includes(crashOnId)) {
    // An uncaught exception ends this thread, as a native fault would.
    setImmediate(() => {
      throw new Error(`failpoint crash_on_id=${crashOnId}`);
    });
    return new Promise<never>(() => undefined);
  }
  try {
    return { ok: true, result: await host.handle(req) };
  } catch (err) {
    if (err instanceof NotCommittedError) {
      // Answer first, then end the thread: piscina starts a new one, which loads what is on disk.
      setTimeout(() => {
        throw err;
      }, 10);
    }
    return { ok: false, error: QuiverError.toWire(err) };
  }
}

const coordinator = new Coordinator(init.workerIndex, init.workerCount, new OpIdCounter(init.opIds), serveShard);

export default async function handle(task: WorkerTask): Promise<WorkerReply | null> {
  switch (task.op) {
    case 'attachPeers':
      coordinator.attach(task.peers, task.main, task.catalog);
      return null;
    case 'catalog':
      coordinator.catalog(task.catalog);
      return null;
    default:
      return serveShard(task);
  }
}
