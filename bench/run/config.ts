// bench/run.ts's configuration, read once from the command line (--large) and BENCH_* env
// variables (bench/README.md lists them), and the collection names it uses.

import { availableParallelism } from 'node:os';
import { envInt } from '../common.js';

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

export const CORES = availableParallelism();
export const PHASES = new Set(
  (process.env.BENCH_PHASES ?? (LARGE ? 'memory,crash,embedding' : 'raw,memory,crash,sweep,embedding,kinds,responses,tenant'))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== ''),
);
for (const p of PHASES) if (!['raw', 'memory', 'crash', 'sweep', 'embedding', 'kinds', 'responses', 'tenant'].includes(p)) throw new Error(`BENCH_PHASES: unknown phase '${p}' (raw, memory, crash, sweep, embedding, kinds, responses, tenant)`);

export const CFG = {
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
  timeoutS: envInt('BENCH_TIMEOUT_S', LARGE ? 14_400 : 5400),
  // The embedding phase (bench/run/embedding.ts): its own data, Cosine, with payloads.
  embedN: envInt('BENCH_EMBED_N', LARGE ? 1_000_000 : 200_000),
  embedDim: envInt('BENCH_EMBED_DIM', 768),
  embedQueries: envInt('BENCH_EMBED_QUERIES', 200),
  embedBatch: envInt('BENCH_EMBED_BATCH', 256),
  embedEfs: envList('BENCH_EMBED_EFS', '64,128'),
  embedInt8Oversampling: envNumber('BENCH_INT8_OVERSAMPLING', 2),
  /** The first is the one recall and QPS are measured at; the others are recall only (ef 128). */
  embedBinaryOversampling: envList('BENCH_BINARY_OVERSAMPLING', '32,8,16,64,128,256'),
  embedSettleMs: envInt('BENCH_EMBED_SETTLE_MS', 15_000, 0),
  phases: [...PHASES],
};
if (!CFG.efs.includes(CFG.latencyEf)) CFG.efs.push(CFG.latencyEf);
if (CFG.killAt >= 1) throw new Error('BENCH_KILL_AT must be below 1 (the share of batches acknowledged before kill -9)');

export const COLLECTION = 'bench';
export const CRASH = 'crash';
/** The ef a point not found as its own nearest at the bench's ef is searched with again. */
export const OWN_NEAREST_HIGH_EF = 512;
