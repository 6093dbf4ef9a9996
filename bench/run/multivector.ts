// The query-kinds phase's multivector figure (issue 28): the ColBERT recipe on a collection of its
// own beside the bench's, in the same server. Documents are 32 x 128 multivectors around
// clustered topics (each row a token near its document's centre), with a dense vector, the mean
// of its rows. A query (32 rows near a document of the data) prefetches the 100 nearest by the
// dense vector, exactly, and reranks them by MaxSim (Cosine). Recall@10 is against the same
// pipeline computed exactly here; QPS through /points/query; and, as the in-process baseline, the
// same rerank of the same 100 candidates in this process, one thread, from float32 rows, with
// the server's MaxSim kernel; the collection has a shard per worker.

import { progress } from '../common.js';
import { httpLoad, type Target } from '../lib/load.js';
import { rng } from '../lib/seeded-data.js';
import { multiScore } from '../../src/workers/index/multi-space.js';
import { CFG } from './config.js';

export const MV = { docs: 2000, rows: 32, dim: 128, candidates: 100, topics: 20 };

export interface MultivectorFigures {
  docs: number;
  rows: number;
  dim: number;
  candidates: number;
  recall: number;
  qps: number;
  /** the same rerank in this process, one thread: queries per second */
  inProcessQps: number;
  /** server CPU per query: main thread and workers, ms */
  mainMs: number;
  workersMs: number;
  failed: number;
  firstError: string | null;
}

const NAME = 'bench_colbert';

function normalise(v: Float32Array, at: number, dim: number): void {
  let n = 0;
  for (let i = 0; i < dim; i++) n += v[at + i]! * v[at + i]!;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < dim; i++) v[at + i]! *= inv;
}

/** MaxSim of packed normalised rows (Cosine: dot products), by the server's own kernel: the baseline is the work, not a slower loop. */
const maxSim = (q: Float32Array, d: Float32Array, dim: number): number => multiScore('Dot', 'float32', q, d, dim);

const rowsJson = (v: Float32Array, dim: number): number[][] => Array.from({ length: v.length / dim }, (_, r) => Array.from(v.subarray(r * dim, (r + 1) * dim)));

/** Multivector rows near `centre`: `rows` tokens, each normalised. */
function tokens(r: () => number, centre: Float32Array, rows: number, dim: number, spread: number): Float32Array {
  const out = new Float32Array(rows * dim);
  for (let t = 0; t < rows; t++) {
    for (let i = 0; i < dim; i++) out[t * dim + i] = centre[i]! + spread * (r() * 2 - 1);
    normalise(out, t * dim, dim);
  }
  return out;
}

function meanRow(v: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(dim);
  for (let at = 0; at < v.length; at += dim) for (let i = 0; i < dim; i++) out[i]! += v[at + i]!;
  normalise(out, 0, dim);
  return out;
}

async function send(url: string, method: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

export async function multivectorPhase(url: string, target: Target, scratch: string): Promise<MultivectorFigures> {
  const { docs, rows, dim, candidates, topics } = MV;
  const r = rng(2811);
  const centres = Array.from({ length: topics }, () => {
    const c = new Float32Array(dim);
    for (let i = 0; i < dim; i++) c[i] = r() * 2 - 1;
    return c;
  });
  // Each document: its own centre near a topic's, and its tokens near that.
  const docCentre = (topic: number): Float32Array => centres[topic]!.map((x) => x + 0.6 * (r() * 2 - 1));
  const multi = Array.from({ length: docs }, (_, i) => tokens(r, docCentre(i % topics), rows, dim, 0.8));
  const dense = multi.map((m) => meanRow(m, dim));
  await send(url, 'PUT', `/collections/${NAME}`, {
    vectors: { dense: { size: dim, distance: 'Cosine' }, colbert: { size: dim, distance: 'Cosine', multivector_config: { comparator: 'max_sim' }, hnsw_config: { m: 0 } } },
    // A shard per worker: each reranks the candidates it holds, in parallel.
    shard_number: CFG.workers,
  });
  for (let from = 0; from < docs; from += 100) {
    const points = multi.slice(from, from + 100).map((m, k) => ({ id: from + k, vector: { dense: Array.from(dense[from + k]!), colbert: rowsJson(m, dim) } }));
    await send(url, 'PUT', `/collections/${NAME}/points?wait=true`, { points });
  }
  const nq = Math.min(CFG.queries, 50);
  const queries = Array.from({ length: nq }, (_, i) => tokens(r, meanRow(multi[(i * 37) % docs]!, dim), rows, dim, 0.05));
  // The exact pipeline: the dense top `candidates`, reranked by MaxSim.
  const candidatesOf = (q: Float32Array): number[] => {
    const d = meanRow(q, dim);
    return dense
      .map((v, id) => ({ id, s: v.reduce((s, x, i) => s + x * d[i]!, 0) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, candidates)
      .map((x) => x.id);
  };
  const rerank = (q: Float32Array, ids: number[]): number[] =>
    ids
      .map((id) => ({ id, s: maxSim(q, multi[id]!, dim) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, CFG.k)
      .map((x) => x.id);
  const pools = queries.map(candidatesOf);
  const bodies = queries.map((q) =>
    JSON.stringify({ prefetch: { query: Array.from(meanRow(q, dim)), using: 'dense', limit: candidates, params: { exact: true } }, query: rowsJson(q, dim), using: 'colbert', limit: CFG.k }),
  );
  let hit = 0;
  for (let i = 0; i < nq; i++) {
    const res = (await (await fetch(`${url}/collections/${NAME}/points/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[i]! })).json()) as { result: { points: { id: number }[] } };
    const want = new Set(rerank(queries[i]!, pools[i]!));
    hit += res.result.points.filter((p) => want.has(p.id)).length;
  }
  // In process: the rerank alone (its candidates known), as many rounds as fill a second.
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < 1000) {
    rerank(queries[done % nq]!, pools[done % nq]!);
    done++;
  }
  const inProcessQps = done / ((performance.now() - start) / 1000);
  const m = await httpLoad({ url, path: `/collections/${NAME}/points/query`, bodies, connections: CFG.connections, seconds: CFG.seconds, warmupSeconds: CFG.warmupS, overallRate: null }, scratch, target);
  await fetch(`${url}/collections/${NAME}`, { method: 'DELETE' });
  const recall = hit / (nq * CFG.k);
  progress(
    `  colbert rerank (${candidates} candidates of ${rows} x ${dim}): recall@10 ${recall.toFixed(3)}, ${m.load.qps.toFixed(0)} QPS; in process, one thread: ${inProcessQps.toFixed(0)} QPS; ` +
      `server CPU per query: main ${m.serverCpu.mainMs.toFixed(2)} ms, workers ${m.serverCpu.workersMs.toFixed(2)} ms`,
  );
  return {
    docs,
    rows,
    dim,
    candidates,
    recall,
    qps: m.load.qps,
    inProcessQps,
    mainMs: m.serverCpu.mainMs,
    workersMs: m.serverCpu.workersMs,
    failed: m.load.failed,
    firstError: m.load.firstError,
  };
}

export function multivectorReport(f: MultivectorFigures): string[] {
  return [
    `ColBERT rerank (${f.docs} documents of ${f.rows} x ${f.dim} multivectors, Cosine; a dense prefetch of ${f.candidates}, exact, reranked by MaxSim; recall@10 against the exact pipeline)`,
    '| recall@10 | QPS | in-process rerank QPS (1 thread) | QPS / in-process | main ms/query | workers ms/query | failed |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${f.recall.toFixed(3)} | ${f.qps.toFixed(0)} | ${f.inProcessQps.toFixed(0)} | ${(f.qps / f.inProcessQps).toFixed(2)} | ${f.mainMs.toFixed(2)} | ${f.workersMs.toFixed(2)} | ${f.failed > 0 ? `${f.failed}: ${f.firstError}` : 0} |`,
  ];
}
