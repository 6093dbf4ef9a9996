// `npm run bench`: the figures of issues 13 (throughput) and 14 (memory and restart), each beside
// raw in-process hnswlib-node on the same data in the same run. See bench/README.md for the
// phases, the variables that size them and how each figure is taken.
//
// Phases: seeded clustered data with exact ground truth (bench/lib/dataset.ts, truth.ts); raw
// hnswlib-node, npm build and the native one (bench/lib/raw.ts); memory and restart after SIGTERM
// (one server, default collection settings); restart after kill -9 in the middle of an ingest;
// memory, recall and QPS at embedding scale with each memory lever (bench/run/embedding.ts);
// responses carrying vectors beside JSON.stringify of their floats (bench/run/responses.ts);
// search through a tenant-bound API key beside the client's own filter (bench/run/tenant.ts);
// the throughput sweeps over SERVICE_SHARDS, shard_number and replication_factor, each setting
// with recall and peak QPS at every ef, p50/p99 at half the peak rate, gRPC beside REST, and the
// server's CPU per query by thread group (bench/lib/load.ts, proc.ts). A collection layout is
// ingested once and its data dir reused by every setting that needs it. The configuration is in
// bench/run/config.ts, the issue 14 phases in bench/run/restart.ts, the sweeps in bench/run/sweep.ts.
//
// Progress goes to stderr; the tables and targets to stdout (bench/lib/report.ts); the same
// figures as JSON to bench/results/<timestamp>.json. Every server and load generator started is
// stopped on the way out, error, signal or BENCH_TIMEOUT_S.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { cleanups, gitCommit, progress, RESULTS_DIR, runBench, stopAll, tracked } from './common.js';
import { Batches, searchBody } from './lib/client.js';
import { makeDataset, rowOf } from './lib/dataset.js';
import { H2LOAD } from './lib/h2load.js';
import { WRK } from './lib/load.js';
import { rawHnswlib } from './lib/raw.js';
import { printReport, type Report, type Sweeps } from './lib/report.js';
import { groundTruth } from './lib/truth.js';
import { CFG, CORES, PHASES } from './run/config.js';
import type { Ctx } from './run/context.js';
import { crashPhase, memoryPhase } from './run/restart.js';
import { embeddingPhase } from './run/embedding.js';
import { kindsPhase } from './run/kinds.js';
import { responsesConfig, responsesPhase } from './run/responses.js';
import { sweepPhase } from './run/sweep.js';
import { tenantConfig, tenantPhase } from './run/tenant.js';

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
    embedding: null,
    kinds: null,
    responses: null,
    tenant: null,
    sweeps: null,
  };
  current = { report, file: join(RESULTS_DIR, `${started.toISOString().replace(/[:.]/g, '-')}.json`), t0 };
  report.raw = await phase('raw', () => {
    progress('raw hnswlib-node, one thread in a child process per build');
    return rawHnswlib(ds, truth, { m: CFG.m, efConstruction: CFG.efConstruct, efs: CFG.efs, k: CFG.k, windowS: CFG.rawSeconds, seed: 100 }, scratch);
  });
  report.memory = await phase('memory', () => memoryPhase(ctx));
  report.crash = await phase('crash', () => crashPhase(ctx));
  report.embedding = await phase('embedding', () => embeddingPhase(ctx));
  report.kinds = await phase('kinds', () => kindsPhase(ctx));
  report.responses = await phase('responses', () => responsesPhase(scratch, responsesConfig(CORES)));
  report.tenant = await phase('tenant', () => tenantPhase(scratch, tenantConfig(CORES, { connections: CFG.connections, seconds: CFG.seconds, warmupS: CFG.warmupS })));
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
