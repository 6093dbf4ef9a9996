// `npm run build && node dist/bench/quantization.js`: what quantization_config costs and saves,
// through the REST API on clustered data with exact ground truth (docs/storage.md, "Quantized
// graphs"). Each configuration gets a fresh server (BENCH_WORKERS workers, one shard), an ingest
// of BENCH_N x BENCH_DIM points, a wait until its graph is built (status green, every vector
// indexed), then: RssAnon growth over the server's RssAnon before the collection existed (both
// read after BENCH_SETTLE_MS idle), as a
// share of the raw float32 bytes of the vectors; RssFile; recall@10 at each ef, rescored with the
// float32 originals from the graph's top `10 x oversampling` (BENCH_INT8_OVERSAMPLING,
// BENCH_BINARY_OVERSAMPLING); and the ingest rate. The data is Euclid (bench/lib/dataset.ts), so
// binary codes (signs) see it only as well as its clusters straddle zero.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, callOk, cleanups, envInt, progress, runBench, stopAll } from './common.js';
import { Batches, ingest, searchAll } from './lib/client.js';
import { makeDataset, recallAtK, rowOf } from './lib/dataset.js';
import { statusBytes } from './lib/proc.js';
import { table, fmt } from './lib/report.js';
import { startQuiver, stopQuiver } from './lib/server.js';
import { groundTruth } from './lib/truth.js';

const CFG = {
  n: envInt('BENCH_N', 50_000),
  dim: envInt('BENCH_DIM', 768),
  queries: envInt('BENCH_QUERIES', 200),
  clusters: envInt('BENCH_CLUSTERS', 100),
  batch: envInt('BENCH_BATCH', 256),
  workers: envInt('BENCH_WORKERS', availableParallelism()),
  efs: (process.env.BENCH_EFS ?? '64,128').split(',').map(Number),
  int8Oversampling: Number(process.env.BENCH_INT8_OVERSAMPLING ?? 2),
  binaryOversampling: Number(process.env.BENCH_BINARY_OVERSAMPLING ?? 8),
  timeoutS: envInt('BENCH_TIMEOUT_S', 3600),
  /** Idle time before each RssAnon reading (the worker threads trim freed memory when idle). */
  settleMs: envInt('BENCH_SETTLE_MS', 15_000),
};
const NAME = 'q';
const MiB = 1048576;

interface Config {
  label: string;
  vectors: Record<string, unknown>;
  quantization: Record<string, unknown> | null;
  oversampling: number | null;
}

const CONFIGS: Config[] = [
  { label: 'float32', vectors: {}, quantization: null, oversampling: null },
  { label: 'int8, originals in RAM', vectors: {}, quantization: { scalar: { type: 'int8', quantile: 0.99 } }, oversampling: CFG.int8Oversampling },
  { label: 'int8, originals on disk', vectors: { on_disk: true }, quantization: { scalar: { type: 'int8', quantile: 0.99 } }, oversampling: CFG.int8Oversampling },
  { label: 'binary, originals on disk', vectors: { on_disk: true }, quantization: { binary: {} }, oversampling: CFG.binaryOversampling },
];

function memory(pid: number): { anon: number; file: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { anon: statusBytes(s, 'RssAnon'), file: statusBytes(s, 'RssFile') };
}

interface Result {
  label: string;
  ingestRate: number;
  anonGrowth: number;
  fileGrowth: number;
  recall: Record<number, number>;
}

let scratch = '';

async function measure(c: Config, ds: ReturnType<typeof makeDataset>, truth: number[][], batches: Batches): Promise<Result> {
  const q = await startQuiver({ dataDir: join(scratch, c.label.replace(/\W+/g, '-')), workers: CFG.workers, scratch });
  try {
    // The same settle before the baseline as after the build: a fresh server returns start-up
    // garbage to the system over its first seconds, which would otherwise count against growth.
    await new Promise((r) => setTimeout(r, CFG.settleMs));
    const before = memory(q.pid);
    const body = { vectors: { size: CFG.dim, distance: 'Euclid', ...c.vectors }, hnsw_config: { m: 16, ef_construct: 100 }, ...(c.quantization === null ? {} : { quantization_config: c.quantization }) };
    await callOk(q.url, 'PUT', `/collections/${NAME}`, JSON.stringify(body));
    progress(`${c.label}: ingest ${CFG.n} x ${CFG.dim}`);
    const ing = await ingest(q.url, NAME, batches, 2);
    for (let i = 0; ; i++) {
      const info = (await call(q.url, 'GET', `/collections/${NAME}`)).json as { result: { status: string; indexed_vectors_count: number } };
      if (info.result.status === 'green' && info.result.indexed_vectors_count === CFG.n) break;
      if (i > 6000) throw new Error(`${c.label}: the graph was not built in 10 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, CFG.settleMs));
    const after = memory(q.pid);
    const recall: Record<number, number> = {};
    for (const ef of CFG.efs) {
      const params = { hnsw_ef: ef, ...(c.oversampling === null ? {} : { quantization: { oversampling: c.oversampling } }) };
      const bodies = Array.from({ length: CFG.queries }, (_, i) => JSON.stringify({ vector: rowOf(ds.queries, i, CFG.dim), limit: 10, params }));
      recall[ef] = recallAtK(await searchAll(q.url, NAME, bodies), truth);
    }
    const r: Result = { label: c.label, ingestRate: ing.rate, anonGrowth: after.anon - before.anon, fileGrowth: after.file - before.file, recall };
    progress(`  ${fmt(r.ingestRate)} points/s, RssAnon +${(r.anonGrowth / MiB).toFixed(0)} MiB, RssFile +${(r.fileGrowth / MiB).toFixed(0)} MiB, recall ${CFG.efs.map((e) => `ef ${e} ${recall[e]!.toFixed(3)}`).join(', ')}`);
    return r;
  } finally {
    await stopQuiver(q);
  }
}

async function main(): Promise<void> {
  scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-quant-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const ds = makeDataset({ n: CFG.n, queries: CFG.queries, dim: CFG.dim, clusters: CFG.clusters, sigma: 0.3, seed: 1 });
  const truth = groundTruth(ds.points, CFG.n, ds.queries, CFG.queries, CFG.dim, 10);
  const batches = new Batches(ds, CFG.batch);
  const results: Result[] = [];
  for (const c of CONFIGS) results.push(await measure(c, ds, truth, batches));
  await stopAll();
  const raw = CFG.n * CFG.dim * 4;
  const out = table(
    ['configuration', 'RssAnon growth', 'x raw float32', 'RssFile growth', ...CFG.efs.map((e) => `recall@10 ef ${e}`), 'ingest points/s'],
    results.map((r) => [r.label, `${(r.anonGrowth / MiB).toFixed(0)} MiB`, fmt(r.anonGrowth / raw, 2), `${(r.fileGrowth / MiB).toFixed(0)} MiB`, ...CFG.efs.map((e) => fmt(r.recall[e]!, 3)), fmt(r.ingestRate)]),
  );
  process.stdout.write(`\nQuantization bench: ${CFG.n} x ${CFG.dim} clustered points, Euclid, m 16, ef_construct 100, ${CFG.workers} workers, raw float32 ${(raw / MiB).toFixed(0)} MiB; oversampling int8 ${CFG.int8Oversampling}, binary ${CFG.binaryOversampling}\n\n${out.join('\n')}\n`);
}

runBench(main, CFG.timeoutS);
