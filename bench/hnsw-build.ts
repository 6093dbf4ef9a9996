// The portable npm build of hnswlib-node against the one compiled at install for this CPU
// (src/native/build-hnswlib.mjs), in process, on the same seeded clustered data: build time,
// single-threaded search rate and latency, and recall@10 against brute force.
// `npm run bench:hnsw-build`; BENCH_HNSW_N (20,000), BENCH_HNSW_DIM (128), BENCH_HNSW_EF (64),
// BENCH_HNSW_QUERIES (2,000), BENCH_HNSW_ROUNDS (5 search passes each, alternating, the best one counts).

import { loadHnswlib, type HnswlibModule } from '../src/workers/index/hnswlib-loader.js';
import { bruteForce, envInt, progress, recallOf, rng } from './common.js';

const N = envInt('BENCH_HNSW_N', 20_000);
const DIM = envInt('BENCH_HNSW_DIM', 128);
const EF = envInt('BENCH_HNSW_EF', 64);
const NQ = envInt('BENCH_HNSW_QUERIES', 2_000);
const ROUNDS = envInt('BENCH_HNSW_ROUNDS', 5);

interface Figures {
  build: string;
  build_s: number;
  qps: number;
  mean_us: number;
  cpu_us: number;
  recall_at_10: number;
}
const K = 10;
const CLUSTERS = 64;

/** Normalised points around CLUSTERS random centres (cosine data, searched in hnswlib's 'ip' space, as Quiver does). */
function clustered(n: number, seed: number, centres: Float32Array): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(r() * CLUSTERS) * DIM;
    let s = 0;
    for (let d = 0; d < DIM; d++) {
      const v = centres[c + d]! + (r() * 2 - 1) * 0.35;
      out[i * DIM + d] = v;
      s += v * v;
    }
    const inv = 1 / Math.sqrt(s);
    for (let d = 0; d < DIM; d++) out[i * DIM + d]! *= inv;
  }
  return out;
}

type Index = InstanceType<HnswlibModule['HierarchicalNSW']>;

function build(lib: HnswlibModule, rows: number[][]): { ix: Index; buildS: number } {
  const ix = new lib.HierarchicalNSW('ip', DIM);
  ix.initIndex(N, 16, 100, 100);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) ix.addPoint(rows[i]!, i);
  ix.setEf(EF);
  return { ix, buildS: (performance.now() - t0) / 1000 };
}

/**
 * One pass over the queries: wall milliseconds, CPU microseconds (what a shared, busy machine
 * disturbs least) and the neighbours found.
 */
function pass(ix: Index, queries: number[][]): { ms: number; cpuUs: number; found: number[][] } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const found = queries.map((q) => ix.searchKnn(q, K).neighbors);
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuUs: c.user + c.system, found };
}

function main(): void {
  const portable = loadHnswlib({ mode: 'portable' });
  const native = loadHnswlib({ mode: 'auto' });
  if (native.build.kind !== 'native') {
    process.stderr.write(`no native build to compare: ${native.build.fallbackReason ?? ''}\n`);
    process.exit(1);
  }
  const r = rng(1);
  const centres = Float32Array.from({ length: CLUSTERS * DIM }, () => r() * 2 - 1);
  const data = clustered(N, 2, centres);
  const qdata = clustered(NQ, 3, centres);
  const rows = Array.from({ length: N }, (_, i) => Array.from(data.subarray(i * DIM, (i + 1) * DIM)));
  const queries = Array.from({ length: NQ }, (_, i) => Array.from(qdata.subarray(i * DIM, (i + 1) * DIM)));
  progress(`${N} x ${DIM} clustered points, ${NQ} queries, k=${K}, m=16, ef_construct=100, ef=${EF}: brute force for recall`);
  const truth = bruteForce(data, qdata, NQ, DIM, K, N);
  const runs = [portable, native].map(({ lib, build: b }) => {
    progress(`${b.description}: inserting`);
    return { name: b.description, ...build(lib, rows), best: Number.POSITIVE_INFINITY, bestCpu: Number.POSITIVE_INFINITY, found: [] as number[][] };
  });
  // Passes alternate between the builds, the best of each counting, so a busy machine slows both alike.
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of runs) {
      const { ms, cpuUs, found } = pass(r.ix, queries);
      r.best = Math.min(r.best, ms);
      r.bestCpu = Math.min(r.bestCpu, cpuUs);
      r.found = found;
    }
  }
  const [p, n] = runs.map((r) => {
    const f = { build: r.name, build_s: +r.buildS.toFixed(2), qps: Math.round((NQ * 1000) / r.best), mean_us: +((r.best * 1000) / NQ).toFixed(1), cpu_us: +(r.bestCpu / NQ).toFixed(1), recall_at_10: +recallOf(r.found, truth).toFixed(4) };
    progress(JSON.stringify(f));
    return f;
  }) as [Figures, Figures];
  const table = [
    ['build', 'insert s', 'search qps (1 thread)', 'mean us/query', 'CPU us/query', 'recall@10'],
    [p.build, String(p.build_s), String(p.qps), String(p.mean_us), String(p.cpu_us), String(p.recall_at_10)],
    [n.build, String(n.build_s), String(n.qps), String(n.mean_us), String(n.cpu_us), String(n.recall_at_10)],
    ['native/portable', `${(p.build_s / n.build_s).toFixed(2)}x faster`, `${(n.qps / p.qps).toFixed(2)}x`, '', `${(p.cpu_us / n.cpu_us).toFixed(2)}x less`, ''],
  ];
  for (const line of table) console.log(line.join(' | '));
}

main();
