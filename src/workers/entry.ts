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
import { MemoryRelease, collectGarbage } from '../shared/memory-release.js';
import { COUNTED_OPS, PROTOCOL_VERSION, type ShardRequest, type WorkerInit, type WorkerReply } from '../shared/protocol.js';
import type { CatalogSnapshot, WorkerTask } from '../shared/coordination.js';
import type { Coordinator } from './coordinator/coordinator.js';
import { selectHnswlib } from './index/hnswlib-loader.js';
import { ShardHost } from './shard-host.js';
import { StartupClock } from '../shared/startup-clock.js';
import { startBusyMeter } from './busy-meter.js';
import { NotCommittedError } from './shard/shard.js';
import { WriteGarbage } from './write-garbage.js';
import { startLatencyProbe } from '../shared/latency-probe.js';
import { setSlowQuerySecs } from './service/issues.js';
import { setLiveRecallFraction } from './service/live-recall.js';
import { setRateBuckets } from './service/rate-limits.js';

/**
 * Write bytes (upsert bodies coordinated, vector columns applied) between two collections (see
 * write-garbage.ts). Each MiB charged leaves ~2-3 MiB of garbage (the body's text and parsed JSON
 * besides the bytes), so at 16 MiB the shard owner's heap and buffers swung by ~50 MiB: measured
 * at 100k x 128 on 2 workers (bench/memory-trace.ts, busy machine, two runs each), RssAnon growth
 * peaked at 2.9-3.2x the raw vectors during the ingest and read 1.9-2.8x right after it; at 4 MiB,
 * 2.4-2.6x and 1.8-1.9x, for the same process CPU over the ingest (21.8-24.4 s against 23.3-25.8 s).
 */
const WRITE_GARBAGE_BUDGET_BYTES = 4 * 1024 * 1024;

const init = workerData as WorkerInit;
// The module graph above evaluated (the main thread marks when it spawned this thread).
const clock = new StartupClock(init.processOrigin);
clock.mark('modules loaded');
if (init.protocolVersion !== PROTOCOL_VERSION) {
  throw new Error(`worker protocol ${PROTOCOL_VERSION} cannot serve a main thread speaking ${init.protocolVersion}`);
}

// Before any graph is built or read; in mode 'native' an unusable native build stops start-up here.
selectHnswlib(init.hnswBuild);
clock.mark('hnswlib loaded');
if (init.slowQuerySecs !== undefined) setSlowQuerySecs(init.slowQuerySecs);
if (init.liveRecallFraction !== undefined) setLiveRecallFraction(init.liveRecallFraction);
if (init.rateBuckets !== undefined) setRateBuckets(init.rateBuckets);

const host = new ShardHost(init.workerIndex, init.workerCount, openDb(init.dataDir), join(init.dataDir, 'hnsw'), {
  savePolicy: init.graphSave,
  ...(init.progress === undefined ? {} : { progress: init.progress }),
  ...(init.listening === undefined ? {} : { listening: init.listening }),
  // Cluster mode: replication_factor counts nodes, not workers (one copy per node).
  singleCopy: init.cluster !== undefined,
  clock,
});
clock.mark('lmdb opened');
// Cluster mode, worker 0: the internal port answers from now on (still loading: peers ask another
// replica), so the node registers without waiting for this thread's shards (internal-port.ts).
const internalPort = init.cluster?.internal === undefined ? null : await (await import('./cluster/internal-port.js')).serveInternalPort(init.cluster.internal, init.cluster.maxMessageBytes, init.cluster.tls);
// Top-level await: piscina holds every task until the shards are loaded.
await host.loadAllAsync();
clock.mark('shards loaded');
if (init.cluster !== undefined) {
  // Cluster mode only: the NATS client loads here, never in single-node mode.
  const { LogFollower } = await import('./cluster/apply-loop.js');
  host.startFollowing(await LogFollower.connect(init.cluster.nats));
}
if (init.busy !== undefined) startBusyMeter(init.busy, init.workerIndex);
// The load's garbage (decoded records, rows staged until the graphs took over) goes back once
// the thread has answered its first tasks; later bursts (ingest) when the thread is quiet.
new MemoryRelease().collectSoon(200);
// An ingest's garbage, collected every few MiB of writes rather than when V8 gets to it.
const writeGarbage = new WriteGarbage(WRITE_GARBAGE_BUDGET_BYTES, () => collectGarbage(1));

/** The vector bytes a write moved to this thread (its columns), dead once it is answered. */
function writeBytes(req: ShardRequest): number {
  if (req.op !== 'upsert' && req.op !== 'updateVectors') return 0;
  let n = 0;
  for (const col of Object.values(req.batch.vectors)) n += col.data.byteLength;
  for (const col of Object.values(req.batch.sparse)) n += col.values.byteLength + col.indices.byteLength;
  for (const col of Object.values(req.batch.multi ?? {})) n += col.data.byteLength;
  return n;
}
startLatencyProbe(`worker${init.workerIndex}`);

const crashOnId = failpoint('crash_on_id');
const readDelayMs = failpoint('read_delay_ms');

// This worker's row of WorkerInit.served, and each counted op's slot in it.
const served = init.served === undefined ? null : new Float64Array(init.served, init.workerIndex * COUNTED_OPS.length * 8, COUNTED_OPS.length);
const servedSlot = new Map<string, number>(COUNTED_OPS.map((op, i) => [op, i]));

/** One shard request, whoever sent it (the main thread, a sibling, or this worker's coordinator). */
async function serveShard(req: ShardRequest): Promise<WorkerReply> {
  if (served !== null) {
    const slot = servedSlot.get(req.op);
    if (slot !== undefined) served[slot]!++;
  }
  // A malformed request (a peer's, over the internal port) is an error reply, never a throw.
  if (crashOnId !== null && req.op === 'upsert' && req.batch?.ids?.includes(crashOnId) === true) {
    // An uncaught exception ends this thread, as a native fault would.
    setImmediate(() => {
      throw new Error(`failpoint crash_on_id=${crashOnId}`);
    });
    return new Promise<never>(() => undefined);
  }
  let bytes = 0;
  try {
    if (readDelayMs !== null && (req.op === 'search' || req.op === 'count')) await new Promise((r) => setTimeout(r, readDelayMs));
    bytes = writeBytes(req);
    return { ok: true, result: await host.handle(req) };
  } catch (err) {
    if (err instanceof NotCommittedError) {
      // Answer first, then end the thread: piscina starts a new one, which loads what is on disk.
      setTimeout(() => {
        throw err;
      }, 10);
    }
    return { ok: false, error: QuiverError.toWire(err) };
  } finally {
    if (bytes > 0) writeGarbage.charge(bytes);
  }
}

// The coordinator's modules (the request schemas and the service layer: about half of this
// thread's module loading) load after the shards, without holding the ping that reports them
// loaded. Its tasks wait for it in arrival order (hand-offs and siblings' requests wait in their
// ports meanwhile); a catalog is kept and applied when it loads (the mirror keeps the newest).
let coordinator: Coordinator | null = null;
let heldCatalog: CatalogSnapshot | null = null;
// Cluster mode: this worker's slot of WorkerInit.hedged (the metrics sum them).
const hedged = init.hedged === undefined ? null : new Float64Array(init.hedged, init.workerIndex * 8, 1);
const coordinatorLoaded = import('./coordinator/coordinator.js').then(({ Coordinator }) => {
  coordinator = new Coordinator(init.workerIndex, init.workerCount, new OpIdCounter(init.opIds), serveShard, writeGarbage, init.cluster === undefined ? null : { ...init.cluster, onHedged: () => void (hedged !== null && hedged[0]!++) });
  if (heldCatalog !== null) coordinator.catalog(heldCatalog);
  heldCatalog = null;
  // Cluster mode: the internal port serves this node's replicas once the coordinator's engine can.
  if (internalPort !== null) void coordinator.clusterLocal().then((c) => c !== null && internalPort.serve(c.local, c.state));
  return coordinator;
});

export default async function handle(task: WorkerTask): Promise<WorkerReply | null> {
  switch (task.op) {
    case 'attachPeers':
      (await coordinatorLoaded).attach(task.peers, task.main, task.catalog, task.cluster, task.writes);
      return null;
    case 'clusterState':
      // In task order after the first attach (its coordinator is loaded by then); a newer state wins.
      (await coordinatorLoaded).clusterState(task.state);
      return null;
    case 'catalog':
      if (coordinator !== null) coordinator.catalog(task.catalog);
      else if (heldCatalog === null || task.catalog.version >= heldCatalog.version) heldCatalog = task.catalog;
      return null;
    default:
      return serveShard(task);
  }
}
