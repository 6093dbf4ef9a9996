// bench/run.ts's embedding phase (issue 27): memory, ingest, recall and QPS at embedding scale,
// BENCH_EMBED_N x BENCH_EMBED_DIM (200,000 x 768; --large 1,000,000) Cosine points, clustered,
// each with a ~400-byte JSON payload, with exact (cosine) ground truth. Each configuration gets a
// fresh server (SERVICE_SHARDS = the core count, one shard): RssAnon and RssFile from /proc before
// the collection exists and once its graph is built (both after BENCH_SETTLE_MS idle), ingest
// rate, recall@10 and peak QPS at each ef. The configurations: float32 without payloads (the
// vectors' own cost), float32 with payloads in memory (the float32 collection the others are
// compared with), float32 with payloads on disk, int8 with originals and payloads on disk, binary
// likewise (query_encoding scalar8bits); for binary, recall at several oversampling factors
// (BENCH_BINARY_OVERSAMPLING). Then kill -9 and a start again: ready time, and the time until
// every vector is indexed again.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callOk, progress } from '../common.js';
import { Batches, ingest, searchAll, untilIndexed } from '../lib/client.js';
import { makeDataset, recallAtK, rowOf, UNIT, type Dataset } from '../lib/dataset.js';
import { httpLoad } from '../lib/load.js';
import { statusBytes } from '../lib/proc.js';
import { killQuiver, startQuiver, stopQuiver } from '../lib/server.js';
import { groundTruth } from '../lib/truth.js';
import { CFG } from './config.js';
import type { Ctx } from './context.js';

const NAME = 'embed';

export interface EmbeddingConfig {
  label: string;
  vectors: Record<string, unknown>;
  quantization: Record<string, unknown> | null;
  payloads: 'none' | 'memory' | 'disk';
  /** The candidates rescored per result (params.quantization.oversampling), for recall and QPS. */
  oversampling: number | null;
}

export interface EmbeddingResult {
  label: string;
  payloads: EmbeddingConfig['payloads'];
  quantized: string | null;
  ingestRate: number;
  anonGrowth: number;
  fileGrowth: number;
  recall: Record<number, number>;
  qps: Record<number, number>;
  oversampling: number | null;
  /** binary only: recall@10 at ef 128 per oversampling factor */
  sweep?: { oversampling: number; recall: number }[];
  /** kill -9 once measured, then start again: spawn -> /readyz 200, and -> every vector indexed again */
  readyAfterKillMs?: number;
  indexedAfterKillMs?: number;
}

export interface EmbeddingFigures {
  n: number;
  dim: number;
  workers: number;
  rawBytes: number;
  payloadJsonBytes: number;
  results: EmbeddingResult[];
}

export const EMBEDDING_CONFIGS: EmbeddingConfig[] = [
  { label: 'float32, no payloads', vectors: {}, quantization: null, payloads: 'none', oversampling: null },
  { label: 'float32, payloads in memory', vectors: {}, quantization: null, payloads: 'memory', oversampling: null },
  { label: 'float32, payloads on disk', vectors: {}, quantization: null, payloads: 'disk', oversampling: null },
  { label: 'int8, originals and payloads on disk', vectors: { on_disk: true }, quantization: { scalar: { type: 'int8', quantile: 0.99 } }, payloads: 'disk', oversampling: CFG.embedInt8Oversampling },
  // The float32 query against the signs (query_encoding scalar8bits: asymmetric), which ranks better than Hamming distances.
  { label: 'binary, originals and payloads on disk', vectors: { on_disk: true }, quantization: { binary: { query_encoding: 'scalar8bits' } }, payloads: 'disk', oversampling: CFG.embedBinaryOversampling[0]! },
];

const CATEGORIES = ['news', 'sports', 'science', 'finance', 'travel', 'health', 'music', 'film', 'books', 'games', 'food', 'fashion'];
const WORDS = 'the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches near old rivers'.split(' ');

/** Point i's payload: ~400 bytes of JSON, as a document store keeps beside an embedding. */
export function payloadJson(i: number): string {
  const words = Array.from({ length: 36 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');
  return JSON.stringify({ doc_id: `doc-${i}`, title: `Document ${i}`, category: CATEGORIES[i % CATEGORIES.length], tags: [`t${i % 50}`, `t${(i * 3) % 50}`], year: 1990 + (i % 35), text: words });
}

/** The rows scaled to unit length (Cosine), in dataset units. */
function unitRows(units: Int32Array, dim: number): Int32Array {
  const out = new Int32Array(units.length);
  for (let base = 0; base < units.length; base += dim) {
    let s = 0;
    for (let d = 0; d < dim; d++) s += (units[base + d]! / UNIT) ** 2;
    const norm = Math.sqrt(s) || 1;
    for (let d = 0; d < dim; d++) out[base + d] = Math.round(units[base + d]! / norm);
  }
  return out;
}

function memory(pid: number): { anon: number; file: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { anon: statusBytes(s, 'RssAnon'), file: statusBytes(s, 'RssFile') };
}

const indexedAll = (url: string, n: number, label: string): Promise<number> => untilIndexed(url, NAME, n, label);

async function measure(c: EmbeddingConfig, ds: Dataset, truth: number[][], batches: { plain: Batches; withPayloads: Batches }, ctx: Ctx): Promise<EmbeddingResult> {
  const { dim } = ds.spec;
  const dataDir = join(ctx.scratch, `embed-${c.label.replace(/\W+/g, '-')}`);
  let q = await startQuiver({ dataDir, workers: CFG.workers, scratch: ctx.scratch });
  try {
    await new Promise((r) => setTimeout(r, CFG.embedSettleMs));
    const before = memory(q.pid);
    const body = {
      vectors: { size: dim, distance: 'Cosine', ...c.vectors },
      hnsw_config: { m: CFG.m, ef_construct: CFG.efConstruct },
      shard_number: 1,
      on_disk_payload: c.payloads === 'disk',
      ...(c.quantization === null ? {} : { quantization_config: c.quantization }),
    };
    await callOk(q.url, 'PUT', `/collections/${NAME}`, JSON.stringify(body));
    progress(`embedding: ${c.label}: ingest ${ds.spec.n} x ${dim}`);
    const ing = await ingest(q.url, NAME, c.payloads === 'none' ? batches.plain : batches.withPayloads, 2);
    await indexedAll(q.url, ds.spec.n, c.label);
    await new Promise((r) => setTimeout(r, CFG.embedSettleMs));
    const after = memory(q.pid);
    const quant = (o: number | null): Record<string, unknown> => (o === null ? {} : { quantization: { oversampling: o } });
    const bodiesAt = (ef: number, o: number | null): string[] =>
      Array.from({ length: ds.spec.queries }, (_, i) => JSON.stringify({ vector: rowOf(ds.queries, i, dim), limit: 10, params: { hnsw_ef: ef, ...quant(o) } }));
    const recall: Record<number, number> = {};
    const qps: Record<number, number> = {};
    for (const ef of CFG.embedEfs) {
      const bodies = bodiesAt(ef, c.oversampling);
      recall[ef] = recallAtK(await searchAll(q.url, NAME, bodies), truth);
      const m = await httpLoad({ url: q.url, path: `/collections/${NAME}/points/search`, bodies, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: null }, ctx.scratch, { pid: q.pid, tidFile: q.tidFile });
      qps[ef] = m.load.qps;
    }
    const result: EmbeddingResult = { label: c.label, payloads: c.payloads, quantized: c.quantization === null ? null : Object.keys(c.quantization)[0]!, ingestRate: ing.rate, anonGrowth: after.anon - before.anon, fileGrowth: after.file - before.file, recall, qps, oversampling: c.oversampling };
    if ('binary' in (c.quantization ?? {})) {
      result.sweep = [];
      for (const o of CFG.embedBinaryOversampling) result.sweep.push({ oversampling: o, recall: recallAtK(await searchAll(q.url, NAME, bodiesAt(128, o)), truth) });
    }
    // kill -9 with the graphs as the last background save left them (every graph_save_writes).
    await killQuiver(q);
    q = await startQuiver({ dataDir, workers: CFG.workers, scratch: ctx.scratch });
    result.readyAfterKillMs = q.readyMs;
    result.indexedAfterKillMs = q.readyMs + (await indexedAll(q.url, ds.spec.n, c.label));
    progress(
      `  ${result.ingestRate.toFixed(0)} points/s, RssAnon +${(result.anonGrowth / 1048576).toFixed(0)} MiB, RssFile +${(result.fileGrowth / 1048576).toFixed(0)} MiB, ${CFG.embedEfs.map((e) => `ef ${e}: recall ${recall[e]!.toFixed(3)} ${qps[e]!.toFixed(0)} QPS`).join(', ')}${result.sweep === undefined ? '' : `; binary recall by oversampling: ${result.sweep.map((s) => `${s.oversampling}: ${s.recall.toFixed(3)}`).join(', ')}`}; after kill -9 ready in ${result.readyAfterKillMs.toFixed(0)} ms, every vector indexed in ${result.indexedAfterKillMs.toFixed(0)} ms`,
    );
    return result;
  } finally {
    await stopQuiver(q);
  }
}

export async function embeddingPhase(ctx: Ctx): Promise<EmbeddingFigures> {
  const n = CFG.embedN;
  const dim = CFG.embedDim;
  const raw = makeDataset({ n, queries: CFG.embedQueries, dim, clusters: CFG.clusters, sigma: CFG.sigma, seed: CFG.seed + 27 });
  const ds: Dataset = { spec: raw.spec, points: unitRows(raw.points, dim), queries: unitRows(raw.queries, dim) };
  const t = performance.now();
  const truth = groundTruth(ds.points, n, ds.queries, ds.spec.queries, dim, CFG.k, 'cosine');
  progress(`embedding: ${n} x ${dim} Cosine points and exact ground truth in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  let payloadJsonBytes = 0;
  for (let i = 0; i < n; i++) payloadJsonBytes += Buffer.byteLength(payloadJson(i));
  const batches = { plain: new Batches(ds, CFG.embedBatch), withPayloads: new Batches(ds, CFG.embedBatch, payloadJson) };
  const results: EmbeddingResult[] = [];
  for (const c of EMBEDDING_CONFIGS) results.push(await measure(c, ds, truth, batches, ctx));
  return { n, dim, workers: CFG.workers, rawBytes: n * dim * 4, payloadJsonBytes, results };
}
