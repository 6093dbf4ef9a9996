// `npm run bench`: the figures of issues 13 (throughput) and 14 (memory and restart), each beside
// raw in-process hnswlib-node on the same data in the same run. See bench/README.md for the
// phases, the variables that size them and how each figure is taken.
//
// Phases: seeded clustered data with exact ground truth (bench/lib/dataset.ts, truth.ts); raw
// hnswlib-node, npm build and the native one (bench/lib/raw.ts); memory and restart after SIGTERM
// (one server, default collection settings); restart after kill -9 in the middle of an ingest;
// the throughput sweeps over SERVICE_SHARDS, shard_number and replication_factor, each setting
// with recall and peak QPS at every ef, p50/p99 at half the peak rate, gRPC beside REST, and the
// server's CPU per query by thread group (bench/lib/load.ts, proc.ts). A collection layout is
// ingested once and its data dir reused by every setting that needs it.
//
// Progress goes to stderr; the tables and targets to stdout (bench/lib/report.ts); the same
// figures as JSON to bench/results/<timestamp>.json. Every server and load generator started is
// stopped on the way out, error, signal or BENCH_TIMEOUT_S.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { cleanups, envInt, gitCommit, progress, RESULTS_DIR, runBench, stopAll, tracked } from './common.js';
import { Batches, countPoints, createCollection, ingest, missingIds, searchAll, searchBody, type IngestResult } from './lib/client.js';
import { makeDataset, recallAtK, rowOf, type Dataset } from './lib/dataset.js';
import { H2LOAD } from './lib/h2load.js';
import { runPacedGrpc, runPacedRest } from './lib/h2load-paced.js';
import { grpcLoad, httpLoad, WRK, type Measured } from './lib/load.js';
import { cpuPerRequest, memoryOf, sampleCpu, type CpuPerRequest } from './lib/proc.js';
import { rawHnswlib } from './lib/raw.js';
import { printReport, type Report, type SettingResult, type Sweeps } from './lib/report.js';
import { collectionInfo, collectionParams, killQuiver, startQuiver, stopQuiver, type Quiver } from './lib/server.js';
import { groundTruth } from './lib/truth.js';

// ---------------------------------------------------------------------------------------------
// configuration

const LARGE = process.argv.includes('--large');

function envList(name: string, def: string): number[] {
  const raw = process.env[name] ?? def;
  const out = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (s === 'W' ? availableParallelism() : Number(s)));
  if (out.some((v) => !Number.isInteger(v) || v < 1)) throw new Error(`${name} must be a comma-separated list of integers >= 1 (or W for the core count), got '${raw}'`);
  return [...new Set(out)];
}

function envNumber(name: string, def: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number, got '${raw}'`);
  return v;
}

const CORES = availableParallelism();
const PHASES = new Set(
  (process.env.BENCH_PHASES ?? (LARGE ? 'memory,crash' : 'raw,memory,crash,sweep'))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
);
for (const p of PHASES) if (!['raw', 'memory', 'crash', 'sweep'].includes(p)) throw new Error(`BENCH_PHASES: unknown phase '${p}' (raw, memory, crash, sweep)`);

const CFG = {
  large: LARGE,
  n: envInt('BENCH_N', LARGE ? 1_000_000 : 100_000),
  dim: envInt('BENCH_DIM', 128),
  queries: envInt('BENCH_QUERIES', 500),
  clusters: envInt('BENCH_CLUSTERS', 100),
  sigma: envNumber('BENCH_SIGMA', 0.3),
  seed: envInt('BENCH_SEED', 1),
  k: 10,
  m: 16,
  efConstruct: 100,
  efs: envList('BENCH_EFS', '32,64,128'),
  latencyEf: envInt('BENCH_LATENCY_EF', 64),
  seconds: envInt('BENCH_SECONDS', 5),
  warmupS: envInt('BENCH_WARMUP_S', 1, 0),
  connections: envInt('BENCH_CONNECTIONS', 64),
  grpcConcurrency: envInt('BENCH_GRPC_CONCURRENCY', 64),
  // h2load (gRPC peak runs when installed): processes, each with its own query, and streams per connection
  h2loadProcs: envInt('BENCH_H2LOAD_PROCS', 8),
  h2loadStreams: envInt('BENCH_H2LOAD_STREAMS', 1),
  // the fixed-rate (half-peak) run with h2load --rps: connections sharing the rate, over h2loadProcs processes
  pacedClients: envInt('BENCH_PACED_CLIENTS', 64),
  rawSeconds: envNumber('BENCH_RAW_SECONDS', 2),
  batch: envInt('BENCH_BATCH', 1000),
  ingestConcurrency: envInt('BENCH_INGEST_CONCURRENCY', 4),
  killAt: envNumber('BENCH_KILL_AT', 0.5),
  /** Quiet time after the ingest (and its recall check) before RssAnon is read again. */
  settleMs: envInt('BENCH_SETTLE_MS', 3000, 0),
  workers: CORES,
  workersSweep: envList('BENCH_WORKERS_SWEEP', '1,2,4,8'),
  sweepWorkers: envInt('BENCH_SWEEP_WORKERS', CORES),
  shardSweep: envList('BENCH_SHARD_SWEEP', '1,2,4'),
  replicaSweep: envList('BENCH_REPLICA_SWEEP', `1,2,${CORES}`),
  replicaShards: envInt('BENCH_REPLICA_SHARDS', 1),
  timeoutS: envInt('BENCH_TIMEOUT_S', LARGE ? 7200 : 1800),
  phases: [...PHASES],
};
if (!CFG.efs.includes(CFG.latencyEf)) CFG.efs.push(CFG.latencyEf);
if (CFG.killAt >= 1) throw new Error('BENCH_KILL_AT must be below 1 (the share of batches acknowledged before kill -9)');

const COLLECTION = 'bench';
const CRASH = 'crash';
/** The ef a point not found as its own nearest at the bench's ef is searched with again. */
const OWN_NEAREST_HIGH_EF = 512;

// ---------------------------------------------------------------------------------------------
// shared state of the run

interface Ctx {
  ds: Dataset;
  truth: number[][];
  batches: Batches;
  /** search bodies per ef (REST) */
  bodies: Map<number, string[]>;
  queryRows: number[][];
  scratch: string;
  /** layout key (`sn2-rf1`) -> data dir holding collection 'bench' with that layout, ingested */
  layouts: Map<string, { dir: string; ingest: IngestResult & { workers: number; cpu: CpuPerRequest } }>;
  /** worker count -> the layout a collection created with default settings got there */
  defaultsAt: Map<number, { sn: number; rf: number }>;
}

const layoutKey = (sn: number, rf: number): string => `sn${sn}-rf${rf}`;

async function ingestMeasured(q: Quiver, name: string, ctx: Ctx): Promise<IngestResult & { workers: number; cpu: CpuPerRequest }> {
  const before = sampleCpu(q.pid, q.tidFile);
  const r = await ingest(q.url, name, ctx.batches, CFG.ingestConcurrency);
  const cpu = cpuPerRequest(before, sampleCpu(q.pid, q.tidFile), r.points);
  progress(`  ingest ${r.points} points in ${r.seconds.toFixed(1)} s: ${r.rate.toFixed(0)} points/s (${cpu.coresBusy.toFixed(2)} cores busy)`);
  return { ...r, workers: q.workers, cpu };
}

async function recallAt(q: Quiver, ef: number, ctx: Ctx, name = COLLECTION): Promise<number> {
  return recallAtK(await searchAll(q.url, name, ctx.bodies.get(ef)!), ctx.truth);
}

/**
 * The ids the searchability check samples: 200 spread evenly over the first killAt of the data,
 * the points the crash phase has acknowledged when it kills (batches go out in order), so the
 * clean graph of the memory phase and the crashed one answer for the same points.
 */
function searchSampleIds(): number[] {
  const upTo = Math.max(1, Math.floor(CFG.n * CFG.killAt));
  const k = Math.min(200, upTo);
  return Array.from({ length: k }, (_, i) => Math.floor((i * upTo) / k));
}

/**
 * Each id searched for with its own vector at `ef`, then the misses again at
 * OWN_NEAREST_HIGH_EF: an approximate search may miss a point that is in the graph; one missed at
 * the high ef too is not reachable there. Returns the misses at each ef.
 */
async function ownNearest(url: string, name: string, ctx: Ctx, ids: number[]): Promise<{ missed: number[]; notFound: number[] }> {
  const at = async (subset: number[], ef: number): Promise<number[]> => {
    const found = await searchAll(url, name, subset.map((id) => searchBody(rowOf(ctx.ds.points, id, CFG.dim), ef, 1)));
    return subset.filter((id, i) => found[i]?.[0] !== id);
  };
  const missed = await at(ids, CFG.latencyEf);
  return { missed, notFound: await at(missed, OWN_NEAREST_HIGH_EF) };
}

// ---------------------------------------------------------------------------------------------
// issue 14: memory and restart after SIGTERM

async function memoryPhase(ctx: Ctx): Promise<Report['memory']> {
  const dir = join(ctx.scratch, 'memory');
  mkdirSync(dir);
  progress(`memory: empty server (${CFG.workers} workers)`);
  let q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  const firstReadyMs = q.readyMs;
  await new Promise((r) => setTimeout(r, 500));
  const empty = memoryOf(q.pid);
  await createCollection(q.url, COLLECTION, CFG.dim, CFG.m, CFG.efConstruct, {});
  const layout = await collectionParams(q.url, COLLECTION);
  progress(`memory: ingest with defaults (shard_number ${layout.shardNumber}, replication_factor ${layout.replicationFactor})`);
  const ing = await ingestMeasured(q, COLLECTION, ctx);
  const count = await countPoints(q.url, COLLECTION);
  if (count !== CFG.n) throw new Error(`after ingest the collection counts ${count} points, expected ${CFG.n}`);
  const afterIngest = memoryOf(q.pid);
  const recallBefore = await recallAt(q, CFG.latencyEf, ctx);
  // The same searchability check as after kill -9, on this graph that was never killed: what
  // HNSW itself leaves unreachable at this size, for the crash phase's figure to be read against.
  const cleanSample = searchSampleIds();
  const clean = await ownNearest(q.url, COLLECTION, ctx, cleanSample);
  const info = await collectionInfo(q.url, COLLECTION);
  const telemetry = await fetch(`${q.url}/telemetry`).then(
    async (r) => (r.status === 200 ? ((await r.json()) as unknown) : null),
    () => null,
  );
  await new Promise((r) => setTimeout(r, CFG.settleMs));
  const afterIngestSettled = memoryOf(q.pid);
  progress(
    `memory: RssAnon ${(empty.rssAnon / 1048576).toFixed(0)} MiB empty, ${(afterIngest.rssAnon / 1048576).toFixed(0)} MiB after ingest, ${(afterIngestSettled.rssAnon / 1048576).toFixed(0)} MiB ${CFG.settleMs} ms later; recall@10 ef ${CFG.latencyEf} ${recallBefore.toFixed(4)}`,
  );

  const stop = await stopQuiver(q);
  progress(`memory: SIGTERM -> exit ${stop.ms.toFixed(0)} ms; restarting`);
  q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  await new Promise((r) => setTimeout(r, 500));
  const afterRestart = memoryOf(q.pid);
  const countAfter = await countPoints(q.url, COLLECTION);
  const recallAfter = await recallAt(q, CFG.latencyEf, ctx);
  progress(`memory: ready ${q.readyMs.toFixed(0)} ms after spawn, ${countAfter} points, recall ${recallAfter.toFixed(4)}, RssAnon ${(afterRestart.rssAnon / 1048576).toFixed(0)} MiB`);
  await stopQuiver(q);
  ctx.layouts.set(layoutKey(layout.shardNumber, layout.replicationFactor), { dir, ingest: ing });
  ctx.defaultsAt.set(CFG.workers, { sn: layout.shardNumber, rf: layout.replicationFactor });

  const rawBytes = CFG.n * CFG.dim * 4;
  return {
    workers: CFG.workers,
    layout,
    rawVectorBytes: rawBytes,
    emptyRssAnon: empty.rssAnon,
    afterIngestRssAnon: afterIngest.rssAnon,
    afterRestartRssAnon: afterRestart.rssAnon,
    emptyRss: empty.rss,
    afterIngestRss: afterIngest.rss,
    afterRestartRss: afterRestart.rss,
    growthAfterIngest: (afterIngest.rssAnon - empty.rssAnon) / rawBytes,
    afterIngestSettledRssAnon: afterIngestSettled.rssAnon,
    growthAfterIngestSettled: (afterIngestSettled.rssAnon - empty.rssAnon) / rawBytes,
    settleMs: CFG.settleMs,
    growthAfterRestart: (afterRestart.rssAnon - empty.rssAnon) / rawBytes,
    ingest: { rate: ing.rate, seconds: ing.seconds, cpu: ing.cpu },
    firstStartReadyMs: firstReadyMs,
    shutdownMs: stop.ms,
    shutdownKilled: stop.killed,
    readyAfterSigtermMs: q.readyMs,
    readyzMessages: q.readyzMessages,
    engineReady: q.engineReady,
    loadLog: loadLines(q),
    countAfter,
    recallBefore,
    recallAfter,
    cleanSearchSample: { sample: cleanSample.length, ownNearestFound: cleanSample.length - clean.missed.length, notFound: clean.notFound.length },
    collectionInfo: info,
    telemetry,
  };
}

/** The server's own lines about loading (graphs, replay, rebuild): what issue 14 asks the log to say. */
function loadLines(q: Quiver): string[] {
  return q.server.logs.filter((l) => /load|replay|rebuil|snapshot|restor/i.test(l) && !/"msg":"(request|engine ready)/.test(l)).slice(0, 40);
}

// ---------------------------------------------------------------------------------------------
// issue 14: kill -9 in the middle of an ingest

async function crashPhase(ctx: Ctx): Promise<Report['crash']> {
  const dir = join(ctx.scratch, 'crash');
  mkdirSync(dir);
  let q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  await createCollection(q.url, CRASH, CFG.dim, CFG.m, CFG.efConstruct, {});
  const stopAt = Math.max(1, Math.floor(ctx.batches.count * CFG.killAt));
  progress(`crash: ingesting, kill -9 once ${stopAt} of ${ctx.batches.count} batches are acknowledged`);
  const part = await ingest(q.url, CRASH, ctx.batches, CFG.ingestConcurrency, 0, ctx.batches.count, stopAt);
  await killQuiver(q);
  const ackedIds: number[] = [];
  for (const b of part.acked) {
    const [lo, hi] = ctx.batches.ids(b);
    for (let i = lo; i < hi; i++) ackedIds.push(i);
  }
  progress(`crash: killed with ${ackedIds.length} points acknowledged; restarting`);
  q = await startQuiver({ dataDir: dir, workers: CFG.workers, scratch: ctx.scratch });
  const readyMs = q.readyMs;
  const count = await countPoints(q.url, CRASH);
  const missing = await missingIds(q.url, CRASH, ackedIds);
  // searchable: a sample of acknowledged points, each searched for with its own vector (see
  // ownNearest; the memory phase runs the same ids on a graph never killed).
  const acked = new Set(ackedIds);
  const sample = searchSampleIds().filter((id) => acked.has(id));
  const { missed, notFound: unreachable } = await ownNearest(q.url, CRASH, ctx, sample);
  const notFound = unreachable.length;
  progress(
    `crash: ready ${readyMs.toFixed(0)} ms after spawn; ${count} points, ${missing.length} acknowledged missing; own nearest at ef ${CFG.latencyEf} ${sample.length - missed.length} of ${sample.length}, ${notFound} not found at ef ${OWN_NEAREST_HIGH_EF}`,
  );
  const engineReady = q.engineReady;
  const log = loadLines(q);
  const readyzMessages = q.readyzMessages;
  // finish the ingest, then the recall must be what a clean ingest gives
  // batches go out in order, so everything from the first unacknowledged one on is re-sent
  // (upserting an acknowledged batch again changes nothing)
  let firstUnacked = 0;
  while (part.acked.includes(firstUnacked)) firstUnacked++;
  await ingest(q.url, CRASH, ctx.batches, CFG.ingestConcurrency, firstUnacked, ctx.batches.count);
  const finalCount = await countPoints(q.url, CRASH);
  const recallAfter = await recallAt(q, CFG.latencyEf, ctx, CRASH);
  await stopQuiver(q);
  progress(`crash: after finishing the ingest ${finalCount} points, recall@10 ${recallAfter.toFixed(4)}`);
  return {
    workers: CFG.workers,
    killAt: CFG.killAt,
    acknowledgedPoints: ackedIds.length,
    readyAfterKillMs: readyMs,
    countAfterRestart: count,
    acknowledgedMissing: missing.length,
    missingSample: missing.slice(0, 20),
    searchSample: sample.length,
    ownNearestAtEf: CFG.latencyEf,
    ownNearestFound: sample.length - missed.length,
    highEf: OWN_NEAREST_HIGH_EF,
    searchSampleNotFound: notFound,
    engineReady,
    loadLog: log,
    readyzMessages,
    countAfterCompletingIngest: finalCount,
    recallAfterCompletingIngest: recallAfter,
  };
}

// ---------------------------------------------------------------------------------------------
// issue 13: the throughput sweeps

interface Setting {
  workers: number;
  /** null: the server's defaults (whatever shard_number and replication_factor it gives) */
  layout: { sn: number; rf: number } | null;
}

const settingKey = (s: Setting): string => `w${s.workers}-${s.layout === null ? 'default' : layoutKey(s.layout.sn, s.layout.rf)}`;

/** A server on the data dir of the setting's layout, ingesting it first when no dir has it yet. */
async function serverFor(s: Setting, ctx: Ctx): Promise<{ q: Quiver; layout: { sn: number; rf: number }; ingestedNow: boolean }> {
  const want = s.layout ?? ctx.defaultsAt.get(s.workers) ?? null;
  if (want !== null) {
    const have = ctx.layouts.get(layoutKey(want.sn, want.rf));
    if (have !== undefined) return { q: await startQuiver({ dataDir: have.dir, workers: s.workers, scratch: ctx.scratch }), layout: want, ingestedNow: false };
  }
  // a fresh dir: create with the layout asked for (or the server's defaults), then ingest
  const dir = mkdtempSync(join(ctx.scratch, 'layout-'));
  const q = await startQuiver({ dataDir: dir, workers: s.workers, scratch: ctx.scratch });
  let layout: { sn: number; rf: number };
  let reuse: string | null = null;
  try {
    await createCollection(q.url, COLLECTION, CFG.dim, CFG.m, CFG.efConstruct, want === null ? {} : { shardNumber: want.sn, replicationFactor: want.rf });
    const p = await collectionParams(q.url, COLLECTION);
    layout = { sn: p.shardNumber, rf: p.replicationFactor };
    // the defaults may turn out to be a layout already ingested
    reuse = ctx.layouts.get(layoutKey(layout.sn, layout.rf))?.dir ?? null;
    if (reuse === null) {
      progress(`  new layout shard_number ${layout.sn}, replication_factor ${layout.rf}: ingesting`);
      const ing = await ingestMeasured(q, COLLECTION, ctx);
      const count = await countPoints(q.url, COLLECTION);
      if (count !== CFG.n) throw new Error(`layout ${layoutKey(layout.sn, layout.rf)}: ${count} points after ingest, expected ${CFG.n}`);
      ctx.layouts.set(layoutKey(layout.sn, layout.rf), { dir, ingest: ing });
    }
  } finally {
    // every setting is measured on a server that loaded its data dir at start, as after a deploy
    await stopQuiver(q);
  }
  if (reuse !== null) rmSync(dir, { recursive: true, force: true });
  return { q: await startQuiver({ dataDir: reuse ?? dir, workers: s.workers, scratch: ctx.scratch }), layout, ingestedNow: reuse === null };
}

async function runSetting(s: Setting, ctx: Ctx): Promise<SettingResult> {
  progress(`setting ${settingKey(s)}: SERVICE_SHARDS=${s.workers}${s.layout === null ? ', default collection settings' : `, shard_number ${s.layout.sn}, replication_factor ${s.layout.rf}`}`);
  const { q, layout, ingestedNow } = await serverFor(s, ctx);
  try {
    return await measureSetting(s, ctx, q, layout, ingestedNow);
  } finally {
    // a failed setting must not leave its server running under the next one
    await stopQuiver(q);
  }
}

async function measureSetting(s: Setting, ctx: Ctx, q: Quiver, layout: { sn: number; rf: number }, ingestedNow: boolean): Promise<SettingResult> {
  if (s.layout === null) ctx.defaultsAt.set(s.workers, layout);
  const target = { pid: q.pid, tidFile: q.tidFile };
  const path = `/collections/${COLLECTION}/points/search`;
  const perEf: SettingResult['perEf'] = [];
  for (const ef of CFG.efs) {
    const recall = await recallAt(q, ef, ctx);
    const m = await httpLoad(
      { url: q.url, path, bodies: ctx.bodies.get(ef)!, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: null },
      ctx.scratch,
      target,
    );
    perEf.push({ ef, recall, peak: m });
    progress(
      `  ef ${ef}: recall ${recall.toFixed(4)}, ${m.load.qps.toFixed(0)} QPS (${m.load.generator}), CPU ms/query main ${m.serverCpu.mainMs.toFixed(3)} workers ${m.serverCpu.workersMs.toFixed(3)} other ${m.serverCpu.otherMs.toFixed(3)}${m.load.failed > 0 ? `, FAILED ${m.load.failed}` : ''}`,
    );
  }
  const peakAtLatencyEf = perEf.find((e) => e.ef === CFG.latencyEf)!.peak.load.qps;
  const halfRate = Math.max(1, peakAtLatencyEf / 2);
  const logMark = q.server.logs.length;
  // h2load when installed (a C generator, see h2load-paced.ts); the paced node:http child otherwise
  const half: Measured =
    H2LOAD.path !== null
      ? await runPacedRest(
          { url: q.url, path, bodies: ctx.bodies.get(CFG.latencyEf)!, rate: halfRate, clients: CFG.pacedClients, procs: CFG.h2loadProcs, seconds: CFG.seconds, warmupSeconds: CFG.warmupS },
          ctx.scratch,
          target,
        )
      : await httpLoad(
          { url: q.url, path, bodies: ctx.bodies.get(CFG.latencyEf)!, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: halfRate },
          ctx.scratch,
          target,
        );
  const pf = half.load.paced;
  progress(
    `  half peak (${halfRate.toFixed(0)}/s, ef ${CFG.latencyEf}, ${half.load.generator}): ${half.load.qps.toFixed(0)} QPS, p50 ${half.load.latencyMs.p50.toFixed(2)} ms p90 ${half.load.latencyMs.p90.toFixed(2)} ms p99 ${half.load.latencyMs.p99.toFixed(2)} ms max ${half.load.latencyMs.max.toFixed(2)} ms${pf === undefined ? '' : `, p99.9 ${pf.p999.toFixed(2)} ms, ${pf.overInterval} slower than a client's interval (${pf.plan.intervalMs.toFixed(1)} ms)`}${half.load.failed > 0 ? `, FAILED ${half.load.failed}: ${half.load.firstError ?? ''}` : ''}`,
  );
  // QUIVER_LATENCY_PROBE=1 (src/shared/latency-probe.ts): the server's own split of the half-peak run
  if (process.env.QUIVER_LATENCY_PROBE === '1') for (const l of q.server.logs.slice(logMark)) if (l.startsWith('latency-probe')) progress(`  ${l}`);
  let grpc: Measured | null = null;
  let grpcError: string | null = null;
  try {
    grpc = await grpcLoad(
      {
        target: `127.0.0.1:${q.grpcPort}`,
        collection: COLLECTION,
        vectors: ctx.queryRows,
        limit: CFG.k,
        hnswEf: CFG.latencyEf,
        concurrency: CFG.grpcConcurrency,
        restUrl: q.url,
        seconds: CFG.seconds,
        warmupSeconds: CFG.warmupS,
      },
      { procs: CFG.h2loadProcs, streams: CFG.h2loadStreams },
      ctx.scratch,
      target,
    );
    progress(`  gRPC ef ${CFG.latencyEf}: ${grpc.load.qps.toFixed(0)} QPS (${grpc.load.generator}, client CPU ms/query ${grpc.load.clientCpuMsPerRequest.toFixed(3)})${grpc.load.failed > 0 ? `, FAILED ${grpc.load.failed}: ${grpc.load.firstError ?? ''}` : ''}, CPU ms/query main ${grpc.serverCpu.mainMs.toFixed(3)} workers ${grpc.serverCpu.workersMs.toFixed(3)}`);
  } catch (e) {
    grpcError = e instanceof Error ? e.message : String(e);
    progress(`  gRPC load failed: ${grpcError.slice(0, 300)}`);
  }
  // gRPC at half its own peak, paced the same way (h2load only)
  let grpcHalf: Measured | null = null;
  if (grpc !== null && H2LOAD.path !== null && grpc.load.qps > 0) {
    try {
      grpcHalf = await runPacedGrpc(
        {
          target: `127.0.0.1:${q.grpcPort}`,
          restUrl: q.url,
          collection: COLLECTION,
          vectors: ctx.queryRows,
          limit: CFG.k,
          hnswEf: CFG.latencyEf,
          rate: Math.max(1, grpc.load.qps / 2),
          clients: CFG.pacedClients,
          procs: CFG.h2loadProcs,
          seconds: CFG.seconds,
          warmupSeconds: CFG.warmupS,
        },
        ctx.scratch,
        target,
      );
      const g = grpcHalf.load;
      progress(
        `  gRPC half peak (${(grpc.load.qps / 2).toFixed(0)}/s): ${g.qps.toFixed(0)} QPS, p50 ${g.latencyMs.p50.toFixed(2)} ms p90 ${g.latencyMs.p90.toFixed(2)} ms p99 ${g.latencyMs.p99.toFixed(2)} ms max ${g.latencyMs.max.toFixed(2)} ms${g.failed > 0 ? `, FAILED ${g.failed}: ${g.firstError ?? ''}` : ''}`,
      );
    } catch (e) {
      progress(`  gRPC half-peak load failed: ${(e instanceof Error ? e.message : String(e)).slice(0, 300)}`);
    }
  }
  const mem = memoryOf(q.pid);
  const engineReady = q.engineReady;
  const readyMs = q.readyMs;
  const ing = ctx.layouts.get(layoutKey(layout.sn, layout.rf))!.ingest;
  return {
    key: settingKey(s),
    workers: s.workers,
    defaults: s.layout === null,
    shardNumber: layout.sn,
    replicationFactor: layout.rf,
    readyMs,
    hnswBuild: typeof engineReady?.hnsw_build === 'string' ? engineReady.hnsw_build : null,
    perEf,
    latencyEf: CFG.latencyEf,
    halfPeak: half,
    grpc,
    grpcHalfPeak: grpcHalf,
    grpcError,
    ingest: { rate: ing.rate, workers: ing.workers, cpu: ing.cpu, ingestedNow },
    rssAnon: mem.rssAnon,
  };
}

/** Fills `out` as settings finish, so an aborted run still reports the settings it measured. */
async function sweepPhase(ctx: Ctx, out: Sweeps): Promise<void> {
  const settings = new Map<string, Setting>();
  const add = (s: Setting): string => {
    const k = settingKey(s);
    if (!settings.has(k)) settings.set(k, s);
    return k;
  };
  out.workersKeys = CFG.workersSweep.map((w) => add({ workers: w, layout: null }));
  out.shardKeys = CFG.shardSweep.map((sn) => add({ workers: CFG.sweepWorkers, layout: { sn, rf: 1 } }));
  out.replicaKeys = CFG.replicaSweep.map((rf) => add({ workers: CFG.sweepWorkers, layout: { sn: CFG.replicaShards, rf } }));
  const results = out.results;
  for (const [k, s] of settings) {
    // an explicit layout that the defaults at the same worker count already gave was measured then
    const same = Object.values(results).find(
      (r): r is SettingResult => !('error' in r) && s.layout !== null && r.workers === s.workers && r.shardNumber === s.layout.sn && r.replicationFactor === s.layout.rf,
    );
    if (same !== undefined) {
      progress(`setting ${k}: the same as ${same.key}, measured already`);
      results[k] = same;
      continue;
    }
    try {
      results[k] = await runSetting(s, ctx);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      progress(`setting ${k} failed: ${msg.slice(0, 500)}`);
      results[k] = { key: k, error: msg.slice(0, 2000) };
    }
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const t0 = performance.now();
  const started = new Date();
  mkdirSync(RESULTS_DIR, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  progress(
    `N=${CFG.n} dim=${CFG.dim} queries=${CFG.queries} efs=${CFG.efs.join(',')} ${CFG.seconds}+${CFG.warmupS} s per load run, ${CFG.connections} connections, ${CORES} cores, phases ${CFG.phases.join(',')}${WRK.path === null ? '' : `, wrk at ${WRK.path}`}`,
  );

  const t = performance.now();
  const ds = makeDataset({ n: CFG.n, queries: CFG.queries, dim: CFG.dim, clusters: CFG.clusters, sigma: CFG.sigma, seed: CFG.seed });
  const truth = groundTruth(ds.points, CFG.n, ds.queries, CFG.queries, CFG.dim, CFG.k);
  const truthS = (performance.now() - t) / 1000;
  progress(`data and exact ground truth in ${truthS.toFixed(1)} s`);
  const queryRows = Array.from({ length: CFG.queries }, (_, i) => rowOf(ds.queries, i, CFG.dim));
  const bodies = new Map(CFG.efs.map((ef) => [ef, queryRows.map((v) => searchBody(v, ef, CFG.k))]));
  const ctx: Ctx = { ds, truth, batches: new Batches(ds, CFG.batch), bodies, queryRows, scratch, layouts: new Map(), defaultsAt: new Map() };
  const phaseS: Record<string, number> = { data: truthS };

  // a phase that fails is reported and the run goes on: one broken part must not hide the others' figures
  const errors: Record<string, string> = {};
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T | null> => {
    if (!PHASES.has(name)) return null;
    const t1 = performance.now();
    try {
      return await run();
    } catch (e) {
      errors[name] = e instanceof Error ? (e.stack ?? e.message) : String(e);
      progress(`phase ${name} failed: ${errors[name]!.slice(0, 1000)}`);
      if (tracked.current !== null) progress(`last server log lines:\n${tracked.current.logs.slice(-20).join('\n')}`);
      await stopAll();
      return null;
    } finally {
      phaseS[name] = (performance.now() - t1) / 1000;
    }
  };
  const report: Report = {
    startedAt: started.toISOString(),
    config: CFG,
    env: {
      node: process.version,
      cores: CORES,
      cpu: cpus()[0]?.model ?? 'unknown',
      memBytes: totalmem(),
      commit: gitCommit(),
      loadGenerator:
        WRK.path === null
          ? `autocannon (peak), ${H2LOAD.path === null ? 'paced node:http' : `h2load --h1 --rps, ${CFG.pacedClients} connections`} (fixed rate), child processes`
          : `wrk ${WRK.path} (peak${WRK.hasRate ? ' and fixed rate, -R' : `; fixed rate: ${H2LOAD.path === null ? 'paced node:http' : `h2load --h1 --rps, ${CFG.pacedClients} connections`}`})`,
      grpcLoadGenerator: H2LOAD.path === null ? 'grpc-js child process' : `h2load ${H2LOAD.path} (${CFG.h2loadProcs} processes, ${CFG.h2loadStreams} stream(s) per connection)`,
      loadAverage: loadavg(),
    },
    phaseSeconds: phaseS,
    errors,
    raw: null,
    memory: null,
    crash: null,
    sweeps: null,
  };
  current = { report, file: join(RESULTS_DIR, `${started.toISOString().replace(/[:.]/g, '-')}.json`), t0 };
  report.raw = await phase('raw', () => {
    progress('raw hnswlib-node, one thread in a child process per build');
    return rawHnswlib(ds, truth, { m: CFG.m, efConstruction: CFG.efConstruct, efs: CFG.efs, k: CFG.k, windowS: CFG.rawSeconds, seed: 100 }, scratch);
  });
  report.memory = await phase('memory', () => memoryPhase(ctx));
  report.crash = await phase('crash', () => crashPhase(ctx));
  const sweeps: Sweeps = { results: {}, workersKeys: [], shardKeys: [], replicaKeys: [] };
  report.sweeps = PHASES.has('sweep') ? sweeps : null;
  await phase('sweep', () => sweepPhase(ctx, sweeps));
  emit();
}

/** The run's report so far, where it goes, and when the run started. */
let current: { report: Report; file: string; t0: number } | null = null;

/** Writes the JSON and prints the tables of what has been measured. */
function emit(): void {
  if (current === null) return;
  const { report, file, t0 } = current;
  report.phaseSeconds.total = (performance.now() - t0) / 1000;
  report.env.loadAverage = loadavg();
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  printReport(report);
  progress(`figures written to ${file}; the run took ${(report.phaseSeconds.total! / 60).toFixed(1)} min`);
}

// `--report <file>` prints the tables of a saved run again, without running anything
const reportArg = process.argv.indexOf('--report');
if (reportArg >= 0) {
  const file = process.argv[reportArg + 1];
  if (file === undefined) throw new Error('--report needs the JSON file of a run');
  printReport(JSON.parse(readFileSync(file, 'utf8')) as Report);
} else {
  runBench(main, CFG.timeoutS, (why) => {
    if (current === null) return;
    current.report.errors.aborted = `${why}: the figures below are those measured before it`;
    emit();
  });
}
