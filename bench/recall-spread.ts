// `node dist/bench/recall-spread.js`: how far recall@10 moves between HNSW graphs of the same
// points that differ only in hnswlib's random level draws (its `randomSeed`), in process, with
// the build of hnswlib-node the server loads. This is the noise band of the bench's kill -9
// recall check: the graph after a kill -9 mid-ingest is such another graph (the points after the
// restart are inserted in another order, with levels drawn by a generator seeded afresh when the
// saved graph is read), so its recall can only be held to a clean ingest's within this band.
//
// BENCH_N (100,000), BENCH_DIM (128), BENCH_QUERIES (500), BENCH_CLUSTERS (100), BENCH_SIGMA (0.3),
// BENCH_SEED (1): the bench's dataset; BENCH_LEVEL_SEEDS (100,200,300,400): one graph each, built
// in parallel over the cores (one worker thread a graph); BENCH_EFS (64): the search efs. m 16 and
// ef_construct 100, as the bench. Writes bench/results/recall-spread-<time>.json.

import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { envInt, progress } from './common.js';
import { makeDataset, recallAtK, rowOf } from './lib/dataset.js';
import { groundTruth } from './lib/truth.js';

const M = 16;
const EF_CONSTRUCT = 100;

interface Job {
  points: Int32Array;
  queries: Int32Array;
  n: number;
  nq: number;
  dim: number;
  levelSeed: number;
  firstSeed: number;
  efs: number[];
}

interface Built {
  levelSeed: number;
  buildMs: number;
  /** ids found per ef, per query */
  found: Record<number, number[][]>;
}

function list(name: string, def: string): number[] {
  const raw = process.env[name] ?? def;
  const out = raw.split(',').map((s) => Number(s.trim()));
  if (out.length === 0 || out.some((v) => !Number.isInteger(v) || v < 1)) throw new Error(`${name} must be a comma-separated list of integers >= 1, got '${raw}'`);
  return out;
}

async function build(job: Job): Promise<Built> {
  const { hnswlib, hnswBuild } = await import('../src/workers/index/hnswlib-loader.js');
  if (job.levelSeed === job.firstSeed) progress(`recall-spread: hnswlib-node ${hnswBuild().description}`);
  const index = new (hnswlib().HierarchicalNSW)('l2', job.dim);
  index.initIndex(job.n, M, EF_CONSTRUCT, job.levelSeed);
  const t0 = performance.now();
  for (let i = 0; i < job.n; i++) index.addPoint(rowOf(job.points, i, job.dim), i);
  const buildMs = performance.now() - t0;
  const found: Record<number, number[][]> = {};
  for (const ef of job.efs) {
    index.setEf(ef);
    found[ef] = [];
    for (let q = 0; q < job.nq; q++) found[ef]!.push(index.searchKnn(rowOf(job.queries, q, job.dim), 10).neighbors);
  }
  return { levelSeed: job.levelSeed, buildMs, found };
}

function inWorker(job: Job): Promise<Built> {
  return new Promise((resolve, reject) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: job });
    w.once('message', (m: Built) => resolve(m));
    w.once('error', reject);
    w.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`graph builder exited with ${code}`))));
  });
}

/** Shares the rows with the builders instead of copying them once each. */
function shared(a: Int32Array): Int32Array {
  const out = new Int32Array(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

async function main(): Promise<void> {
  const spec = {
    n: envInt('BENCH_N', 100_000),
    dim: envInt('BENCH_DIM', 128),
    queries: envInt('BENCH_QUERIES', 500),
    clusters: envInt('BENCH_CLUSTERS', 100),
    sigma: Number(process.env.BENCH_SIGMA ?? 0.3),
    seed: envInt('BENCH_SEED', 1),
  };
  const levelSeeds = list('BENCH_LEVEL_SEEDS', '100,200,300,400');
  const efs = list('BENCH_EFS', '64');
  const ds = makeDataset(spec);
  progress(`recall-spread: ${spec.n} x ${spec.dim}, exact top-10 of ${spec.queries} queries`);
  const truth = groundTruth(ds.points, spec.n, ds.queries, spec.queries, spec.dim, 10);
  const job = { points: shared(ds.points), queries: shared(ds.queries), n: spec.n, nq: spec.queries, dim: spec.dim, efs, firstSeed: levelSeeds[0]! };
  const results: Built[] = [];
  const parallel = Math.max(1, availableParallelism());
  for (let i = 0; i < levelSeeds.length; i += parallel) {
    const round = levelSeeds.slice(i, i + parallel);
    progress(`recall-spread: building graphs with level seeds ${round.join(', ')}`);
    results.push(...(await Promise.all(round.map((levelSeed) => inWorker({ ...job, levelSeed })))));
  }
  const perEf = efs.map((ef) => {
    const recalls = results.map((r) => recallAtK(r.found[ef]!, truth));
    return { ef, recalls, min: Math.min(...recalls), max: Math.max(...recalls), spread: Math.max(...recalls) - Math.min(...recalls) };
  });
  for (const e of perEf) {
    console.log(`ef ${e.ef}: recall@10 ${e.recalls.map((r, i) => `${r.toFixed(4)} (seed ${levelSeeds[i]})`).join(', ')}; spread ${e.spread.toFixed(4)}`);
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results', `recall-spread-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ spec, m: M, efConstruct: EF_CONSTRUCT, levelSeeds, buildMs: results.map((r) => r.buildMs), perEf }, null, 2));
  console.log(`results: ${out}`);
}

if (isMainThread) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
} else {
  void build(workerData as Job).then((b) => parentPort!.postMessage(b));
}
