// `npm run bench:sparse`: sparse vector search in Quiver (the exact inverted index of
// src/workers/index/sparse-index.ts), with and without the idf modifier, and hybrid dense + sparse
// search fused with RRF. Seeded random sparse documents: every document holds BENCH_NNZ distinct
// terms drawn from a BENCH_VOCAB vocabulary with a Zipf-like skew (term of rank r drawn with
// probability proportional to 1 / (r + 1)^BENCH_ZIPF, ranks scattered over the term ids by a
// seeded permutation), so a few terms are in most documents and most terms are rare; weights are
// random positive whole millionths in (0, 1]. Queries hold about BENCH_QNNZ terms (uniform in
// [QNNZ/2, 3 QNNZ/2]) from the same distribution.
//
// One server (loopback, temp data dir), two collections:
// - `sparse_text` ({sparse_vectors: {text: {}}}): ingest rate (PUT /points?wait=true, batches of
//   BENCH_BATCH), server RSS growth per document, then POST /points/query
//   {query: {indices, values}, using: 'text', limit: 10}: ids (and scores) checked against a
//   brute-force sparse dot product over every document computed here, 1-client latency p50/p99,
//   and QPS under autocannon. Then PATCH /collections/sparse_text
//   {sparse_vectors: {text: {modifier: 'idf'}}} and the same again with idf (Qdrant's
//   ln((N - df + 0.5) / (df + 0.5) + 1), df counted over the whole collection) applied to the
//   brute force. One collection measured through PATCH: the data and the index are the same, the
//   modifier only changes the query weights, so ingest and memory are measured once.
// - `sparse_hybrid` (a BENCH_DENSE_DIM-d Cosine vector `dense` plus the same sparse `text`): ingest
//   rate and RSS growth, then queries with prefetch [dense, sparse] (limit BENCH_PREFETCH_LIMIT
//   each) and query {fusion: 'rrf'}, limit 10: 1-client latency and QPS. Checked on the sample:
//   the sparse leg alone against brute force, the dense leg's recall against exact brute force
//   (it goes through HNSW, so it is approximate by design), and the fused ids against RRF computed
//   here from the two legs as the server returns them alone (score 1 / (position + k), k = 2,
//   position from 0; ties by id).
//
// The brute force reproduces the server's arithmetic (float32 weights, products summed in
// double in ascending term order), so ids must be identical and scores equal; a tie at the
// cut (10th and 11th equal) is reported, as it could legitimately reorder.
//
// Sized by env: BENCH_N (100000 documents), BENCH_NNZ (100 terms per document), BENCH_VOCAB
// (30000), BENCH_ZIPF (1.0), BENCH_QUERIES (100), BENCH_QNNZ (20), BENCH_CHECK_QUERIES (100:
// queries checked against brute force, at most BENCH_QUERIES), BENCH_SECONDS (5 per autocannon
// run, after a 2 s warm-up), BENCH_SHARDS (os.availableParallelism()), BENCH_CONNECTIONS (32),
// BENCH_BATCH (500), BENCH_INGEST_CONCURRENCY (4), BENCH_DENSE_DIM (64), BENCH_PREFETCH_LIMIT
// (20), BENCH_TIMEOUT_S (3600: the whole run is aborted, and the server killed, after this long).
//
// Progress goes to stderr; the tables to stdout; the same figures as JSON to
// bench/results/sparse-<timestamp>.json. The server is always stopped on the way out, error or
// not (bench/common.ts).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  autocannonRun,
  bruteForce,
  callOk,
  cleanups,
  envInt,
  gitCommit,
  latencyStats,
  loadFigures,
  memOf,
  normalised,
  progress,
  randomMicros,
  recallOf,
  pushTop,
  RESULTS_DIR,
  rng,
  row,
  rowJson,
  runBench,
  startServer,
  stopServer,
  tracked,
  type LoadFigures,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// configuration

function envFloat(name: string, def: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number >= ${min}, got '${raw}'`);
  return v;
}

const N = envInt('BENCH_N', 100_000);
const NNZ = envInt('BENCH_NNZ', 100);
const VOCAB = envInt('BENCH_VOCAB', 30_000);
const ZIPF = envFloat('BENCH_ZIPF', 1.0, 0);
const QUERIES = envInt('BENCH_QUERIES', 100);
const QNNZ = envInt('BENCH_QNNZ', 20);
const CHECK = Math.min(QUERIES, envInt('BENCH_CHECK_QUERIES', 100));
const SECONDS = envInt('BENCH_SECONDS', 5);
const SHARDS = envInt('BENCH_SHARDS', availableParallelism());
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const BATCH = envInt('BENCH_BATCH', 500);
const INGEST_CONCURRENCY = envInt('BENCH_INGEST_CONCURRENCY', 4);
const DENSE_DIM = envInt('BENCH_DENSE_DIM', 64);
const PREFETCH_LIMIT = envInt('BENCH_PREFETCH_LIMIT', 20);
const TIMEOUT_S = envInt('BENCH_TIMEOUT_S', 3600);
const K = 10;
/** Quiver's (and Qdrant's) default RRF constant. */
const RRF_K = 2;
const DOC_SEED = 11;
const QUERY_SEED = 12;
const PERM_SEED = 13;
const DENSE_SEED = 14;
const DENSE_QUERY_SEED = 15;
const SPARSE = 'sparse_text';
const HYBRID = 'sparse_hybrid';
const QMIN = Math.max(1, Math.floor(QNNZ / 2));
const QMAX = Math.max(QMIN, Math.ceil((3 * QNNZ) / 2));
/** How deep the brute force ranks: the hybrid's sparse leg, plus one to see ties at the cut. */
const DEPTH = Math.max(K, PREFETCH_LIMIT) + 1;

if (2 * NNZ > VOCAB) throw new Error(`BENCH_NNZ (${NNZ}) must be at most half of BENCH_VOCAB (${VOCAB})`);
if (2 * QMAX > VOCAB) throw new Error(`BENCH_QNNZ (${QNNZ}) is too large for BENCH_VOCAB (${VOCAB})`);

// ---------------------------------------------------------------------------------------------
// data: sparse vectors as sorted term ids with weights in whole millionths (the JSON sent and the
// float32 the server keeps are then the same numbers the brute force uses)

interface SparseSet {
  /** Term ids of item i at offsets[i] .. offsets[i + 1], ascending. */
  terms: Uint32Array;
  micros: Int32Array;
  /** The weights as the server stores them (float32). */
  weights: Float32Array;
  offsets: Int32Array;
}

/** Draws distinct Zipf-skewed terms: rank by inverse CDF, term id by a seeded permutation of ranks. */
class TermSampler {
  readonly #cdf: Float64Array;
  readonly #termOfRank: Uint32Array;
  readonly #seen: Int32Array;
  #stamp = 0;

  constructor(vocab: number, s: number, permSeed: number) {
    this.#cdf = new Float64Array(vocab);
    let acc = 0;
    for (let r = 0; r < vocab; r++) this.#cdf[r] = acc += 1 / Math.pow(r + 1, s);
    for (let r = 0; r < vocab; r++) this.#cdf[r] = this.#cdf[r]! / acc;
    this.#termOfRank = new Uint32Array(vocab);
    for (let r = 0; r < vocab; r++) this.#termOfRank[r] = r;
    const rand = rng(permSeed);
    for (let r = vocab - 1; r > 0; r--) {
      const j = Math.floor(rand() * (r + 1));
      const t = this.#termOfRank[r]!;
      this.#termOfRank[r] = this.#termOfRank[j]!;
      this.#termOfRank[j] = t;
    }
    this.#seen = new Int32Array(vocab);
  }

  #rank(u: number): number {
    let lo = 0;
    let hi = this.#cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** `count` distinct term ids, ascending. */
  draw(rand: () => number, count: number): number[] {
    const stamp = ++this.#stamp;
    const out: number[] = [];
    let tries = 0;
    while (out.length < count) {
      if (++tries > 10_000 * count) throw new Error(`could not draw ${count} distinct terms (skew ${ZIPF} too high for the vocabulary)`);
      const t = this.#termOfRank[this.#rank(rand())]!;
      if (this.#seen[t] === stamp) continue;
      this.#seen[t] = stamp;
      out.push(t);
    }
    return out.sort((a, b) => a - b);
  }
}

function generate(sampler: TermSampler, count: number, seed: number, nnzOf: (rand: () => number) => number): SparseSet {
  const rand = rng(seed);
  const terms: number[] = [];
  const micros: number[] = [];
  const offsets = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const ts = sampler.draw(rand, nnzOf(rand));
    for (const t of ts) {
      terms.push(t);
      micros.push(1 + Math.floor(rand() * 1_000_000));
    }
    offsets[i + 1] = terms.length;
  }
  const m = Int32Array.from(micros);
  return { terms: Uint32Array.from(terms), micros: m, weights: Float32Array.from(m, (v) => v / 1e6), offsets };
}

function sparseJson(set: SparseSet, i: number): string {
  const from = set.offsets[i]!;
  const to = set.offsets[i + 1]!;
  const idx: number[] = [];
  const val: number[] = [];
  for (let j = from; j < to; j++) {
    idx.push(set.terms[j]!);
    val.push(set.micros[j]! / 1e6);
  }
  return `{"indices":[${idx.join(',')}],"values":[${val.join(',')}]}`;
}

/** Documents holding each term. */
function documentFrequencies(docs: SparseSet): Int32Array {
  const df = new Int32Array(VOCAB);
  for (let j = 0; j < docs.terms.length; j++) df[docs.terms[j]!]!++;
  return df;
}

/** Qdrant's idf, as src/main/service/nearest.ts computes it. */
function idf(points: number, df: number): number {
  return Math.log((points - df + 0.5) / (df + 0.5) + 1);
}

interface Ranked {
  ids: number[];
  scores: number[];
}

/**
 * Exact top `depth` by sparse dot product over every document, query weights `qw` (float32
 * values) per query term. Only documents sharing a term are ranked (the server scores no
 * others); ties by id. Products are summed in ascending term order, as the server does.
 */
function sparseBruteForce(docs: SparseSet, qTerms: ArrayLike<number>, qw: ArrayLike<number>, depth: number, dense: Float64Array): Ranked {
  for (let j = 0; j < qTerms.length; j++) dense[qTerms[j]!] = qw[j]!;
  const ids: number[] = [];
  const scores: number[] = [];
  const n = docs.offsets.length - 1;
  for (let i = 0; i < n; i++) {
    let s = 0;
    let hit = false;
    for (let j = docs.offsets[i]!, end = docs.offsets[i + 1]!; j < end; j++) {
      const w = dense[docs.terms[j]!]!;
      if (w !== 0) {
        s += w * docs.weights[j]!;
        hit = true;
      }
    }
    // ids arrive ascending, so ties go by id
    if (hit) pushTop(ids, scores, depth, i, s);
  }
  for (let j = 0; j < qTerms.length; j++) dense[qTerms[j]!] = 0;
  return { ids, scores };
}

/** RRF as Quiver (and Qdrant) compute it: sum over lists of 1 / (position + k); ties by id. */
function rrfLocal(lists: Ranked[], limit: number): number[] {
  const score = new Map<number, number>();
  for (const list of lists) list.ids.forEach((id, pos) => score.set(id, (score.get(id) ?? 0) + 1 / (pos + RRF_K)));
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([id]) => id);
}

// ---------------------------------------------------------------------------------------------
// answers

interface QueryResponse {
  result?: { points?: unknown };
}
interface CollectionInfo {
  result?: {
    points_count?: number;
    config?: { params?: { shard_number?: number; sparse_vectors?: Record<string, { modifier?: string }> } };
  };
}

function rankedOf(json: unknown, where: string): Ranked {
  const points = (json as QueryResponse).result?.points;
  if (!Array.isArray(points)) throw new Error(`${where}: expected result.points, got ${JSON.stringify(json).slice(0, 300)}`);
  const ids: number[] = [];
  const scores: number[] = [];
  for (const p of points as unknown[]) {
    const { id, score } = p as { id?: unknown; score?: unknown };
    if (typeof id !== 'number' || typeof score !== 'number') throw new Error(`${where}: bad scored point ${JSON.stringify(p).slice(0, 200)}`);
    ids.push(id);
    scores.push(score);
  }
  return { ids, scores };
}

interface Mismatch {
  query: number;
  expected: { id: number; score: number }[];
  got: { id: number; score: number }[];
}

/** Result of checking one case's answers against the expected lists. */
interface Check {
  checked: number;
  /** False when only ids are compared (the hybrid's fused list: the expected one has no scores). */
  scoresCompared: boolean;
  /** Queries whose ids (in order) differ from the expected ones. */
  idMismatches: number;
  /** Queries with the right ids whose scores differ. */
  scoreMismatches: number;
  maxScoreRelDiff: number;
  /** Queries where the expected k-th and (k+1)-th scores tie (the cut could legitimately differ). */
  tiesAtCut: number;
  examples: Mismatch[];
}

function newCheck(scoresCompared = true): Check {
  return { checked: 0, scoresCompared, idMismatches: 0, scoreMismatches: 0, maxScoreRelDiff: 0, tiesAtCut: 0, examples: [] };
}

/** Compares an answer with the first `k` of `truth` (which is ranked one deeper, for ties). */
function checkAnswer(c: Check, q: number, got: Ranked, truth: Ranked, k: number): void {
  const compareScores = c.scoresCompared;
  c.checked++;
  const want: Ranked = { ids: truth.ids.slice(0, k), scores: truth.scores.slice(0, k) };
  if (truth.scores.length > k && truth.scores[k] === truth.scores[k - 1]) c.tiesAtCut++;
  const sameIds = got.ids.length === want.ids.length && got.ids.every((id, i) => id === want.ids[i]);
  let rel = 0;
  if (sameIds && compareScores) {
    for (let i = 0; i < want.scores.length; i++) {
      const d = Math.abs(got.scores[i]! - want.scores[i]!) / Math.max(Math.abs(want.scores[i]!), 1e-30);
      if (d > rel) rel = d;
    }
    if (rel > c.maxScoreRelDiff) c.maxScoreRelDiff = rel;
    if (rel > 0) c.scoreMismatches++;
  }
  if (!sameIds || rel > 0) {
    if (!sameIds) c.idMismatches++;
    if (c.examples.length < 5) {
      const pairs = (r: Ranked): { id: number; score: number }[] => r.ids.map((id, i) => ({ id, score: r.scores[i]! }));
      c.examples.push({ query: q, expected: pairs(want), got: pairs(got) });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// figures

interface Ingest {
  collection: string;
  docs: number;
  seconds: number;
  rate: number;
  bodyBytes: number;
  batchMs: { p50: number; p99: number; mean: number };
  rssBefore: number;
  rssAfter: number;
  bytesPerDoc: number;
}

interface Case {
  name: string;
  collection: string;
  description: string;
  check: Check;
  /** Hybrid only: the sparse leg against brute force, and dense-leg recall against exact search. */
  sparseLeg: Check | null;
  denseLegRecall: number | null;
  /** Hybrid only: 1-client latency of each leg sent alone (limit BENCH_PREFETCH_LIMIT), over the checked queries. */
  legLatencyMs: { dense: { p50: number; p99: number; mean: number }; sparse: { p50: number; p99: number; mean: number } } | null;
  sequentialLatencyMs: { p50: number; p99: number; mean: number };
  load: LoadFigures | null;
  drainMs: number | null;
}

interface Report {
  startedAt: string;
  finishedAt: string;
  params: {
    N: number;
    nnz: number;
    vocab: number;
    zipf: number;
    queries: number;
    qnnz: { mean: number; min: number; max: number };
    checkedQueries: number;
    k: number;
    seconds: number;
    connections: number;
    batch: number;
    ingestConcurrency: number;
    shards: number;
    denseDim: number;
    prefetchLimit: number;
    rrfK: number;
  };
  env: { node: string; cores: number; cpu: string; commit: string | null; loadavgStart: number[]; loadavgEnd: number[] };
  data: {
    generateS: number;
    bruteForceS: number;
    termsUsed: number;
    maxDf: number;
    /** Fraction of documents holding the commonest term. */
    maxDfFraction: number;
    termsInHalfTheDocs: number;
    /** Postings a query walks (sum of its terms' df), over the queries. */
    postingsPerQuery: { mean: number; max: number; min: number };
    /** Documents sharing at least one term with a query (those the server scores), over the checked queries. */
    candidatesPerQuery: { mean: number; max: number };
  };
  ingest: Ingest[];
  memory: { rssEmpty: number; rssAfterLoad: number; hwmAfterLoad: number };
  patch: { ms: number; modifierAfter: string | null };
  cases: Case[];
  serverStop: { ms: number; code: number | null; signal: NodeJS.Signals | null; killed: boolean };
  serverProblems: string[];
}

// ---------------------------------------------------------------------------------------------
// the run

async function main(): Promise<void> {
  const started = new Date();
  const loadStart = loadavg();
  progress(
    `N=${N} nnz=${NNZ} vocab=${VOCAB} zipf=${ZIPF} queries=${QUERIES} qnnz~${QNNZ} (${QMIN}..${QMAX}) checked=${CHECK} seconds=${SECONDS} ` +
      `shards=${SHARDS} connections=${CONNECTIONS} batch=${BATCH} cores=${availableParallelism()} loadavg=${loadStart.map((x) => x.toFixed(2)).join(' ')}`,
  );

  // data
  let t = performance.now();
  const sampler = new TermSampler(VOCAB, ZIPF, PERM_SEED);
  const docs = generate(sampler, N, DOC_SEED, () => NNZ);
  const queries = generate(sampler, QUERIES, QUERY_SEED, (rand) => QMIN + Math.floor(rand() * (QMAX - QMIN + 1)));
  const denseDocs = randomMicros(N, DENSE_DIM, DENSE_SEED);
  const denseQueries = randomMicros(QUERIES, DENSE_DIM, DENSE_QUERY_SEED);
  const df = documentFrequencies(docs);
  const generateS = (performance.now() - t) / 1000;
  let maxDf = 0;
  let termsUsed = 0;
  let termsInHalf = 0;
  for (let term = 0; term < VOCAB; term++) {
    if (df[term]! > 0) termsUsed++;
    if (df[term]! > maxDf) maxDf = df[term]!;
    if (df[term]! * 2 >= N) termsInHalf++;
  }
  const qTermsOf = (q: number): Uint32Array => queries.terms.subarray(queries.offsets[q]!, queries.offsets[q + 1]!);
  const qWeightsOf = (q: number): Float32Array => queries.weights.subarray(queries.offsets[q]!, queries.offsets[q + 1]!);
  const postings: number[] = [];
  for (let q = 0; q < QUERIES; q++) postings.push(qTermsOf(q).reduce((a, term) => a + df[term]!, 0));
  progress(
    `generated in ${generateS.toFixed(1)} s: ${termsUsed} terms used, commonest in ${maxDf} docs (${((100 * maxDf) / N).toFixed(1)}%), ` +
      `${termsInHalf} terms in half the docs or more; postings per query mean ${(postings.reduce((a, b) => a + b, 0) / QUERIES).toFixed(0)}`,
  );

  // exact answers: plain weights, idf weights (collection-wide df over all N documents)
  t = performance.now();
  const scratchDense = new Float64Array(VOCAB);
  const truthPlain: Ranked[] = [];
  const truthIdf: Ranked[] = [];
  const candidates: number[] = [];
  for (let q = 0; q < CHECK; q++) {
    const terms = qTermsOf(q);
    const w = qWeightsOf(q);
    truthPlain.push(sparseBruteForce(docs, terms, w, DEPTH, scratchDense));
    // the server multiplies the float32 query weight by idf and keeps the product as float32
    const wIdf = Float32Array.from(w, (v, j) => v * idf(N, df[terms[j]!]!));
    truthIdf.push(sparseBruteForce(docs, terms, wIdf, DEPTH, scratchDense));
    // documents sharing a term: what the server's accumulator holds for this query
    const mark = new Uint8Array(VOCAB);
    for (const term of terms) mark[term] = 1;
    let c = 0;
    for (let i = 0; i < N; i++) {
      for (let j = docs.offsets[i]!, end = docs.offsets[i + 1]!; j < end; j++) {
        if (mark[docs.terms[j]!] === 1) {
          c++;
          break;
        }
      }
    }
    candidates.push(c);
  }
  const denseTruth = bruteForce(normalised(denseDocs, N, DENSE_DIM), normalised(denseQueries, CHECK, DENSE_DIM), CHECK, DENSE_DIM, PREFETCH_LIMIT, N);
  const bruteForceS = (performance.now() - t) / 1000;
  progress(`brute force for ${CHECK} queries in ${bruteForceS.toFixed(1)} s`);

  // the server
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-sparse-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir);
  progress(`quiver: starting server (${SHARDS} shards)`);
  const server = await startServer(dataDir, SHARDS);
  tracked.current = server;
  await server.ready;
  const url = server.url;
  const memEmpty = memOf(server.pid);
  progress(`quiver listening on ${url}, RSS ${(memEmpty.rss / 1048576).toFixed(0)} MiB`);

  const ingestInto = async (collection: string, docJson: (i: number) => string): Promise<Ingest> => {
    // bodies prepared before timing, so the timer sees the server, not JSON building here
    const batches: Buffer[] = [];
    for (let start = 0; start < N; start += BATCH) {
      const parts: string[] = [];
      for (let i = start; i < Math.min(N, start + BATCH); i++) parts.push(`{"id":${i},"vector":${docJson(i)}}`);
      batches.push(Buffer.from(`{"points":[${parts.join(',')}]}`));
    }
    const bodyBytes = batches.reduce((a, b) => a + b.length, 0);
    const rssBefore = memOf(server.pid).rss;
    progress(`${collection}: upserting ${batches.length} batches of ${BATCH} (${(bodyBytes / 1048576).toFixed(0)} MiB JSON), ${INGEST_CONCURRENCY} in flight`);
    const batchMs: number[] = [];
    let next = 0;
    let done = 0;
    const t0 = performance.now();
    let lastReport = t0;
    await Promise.all(
      Array.from({ length: INGEST_CONCURRENCY }, async () => {
        while (next < batches.length) {
          const b = next++;
          const t1 = performance.now();
          const r = await fetch(`${url}/collections/${collection}/points?wait=true`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: batches[b]!,
            signal: AbortSignal.timeout(300_000),
          });
          const text = await r.text();
          if (r.status !== 200) throw new Error(`${collection}: upsert batch ${b} -> ${r.status}: ${text.slice(0, 500)}`);
          batchMs.push(performance.now() - t1);
          done++;
          if (performance.now() - lastReport > 10_000) {
            lastReport = performance.now();
            progress(`${collection}: ${done}/${batches.length} batches, ${((done * BATCH) / ((lastReport - t0) / 1000)).toFixed(0)} docs/s so far`);
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const rssAfter = memOf(server.pid).rss;
    const info = ((await callOk(url, 'GET', `/collections/${collection}`)) as CollectionInfo).result;
    if (info?.points_count !== N) throw new Error(`${collection} holds ${String(info?.points_count)} points, expected ${N}`);
    progress(
      `${collection}: ingest ${seconds.toFixed(1)} s (${(N / seconds).toFixed(0)} docs/s), RSS ${(rssBefore / 1048576).toFixed(0)} -> ${(rssAfter / 1048576).toFixed(0)} MiB ` +
        `(${((rssAfter - rssBefore) / N).toFixed(0)} B/doc)`,
    );
    return {
      collection,
      docs: N,
      seconds,
      rate: N / seconds,
      bodyBytes,
      batchMs: latencyStats(batchMs),
      rssBefore,
      rssAfter,
      bytesPerDoc: (rssAfter - rssBefore) / N,
    };
  };

  // After a load run the searches autocannon left queued still run in the shard workers (nothing
  // cancels them); an exact count fans out to every shard and comes back once they are worked
  // off, so one run's backlog is not billed to the next.
  const drain = async (collection: string): Promise<number> => {
    const t0 = performance.now();
    await callOk(url, 'POST', `/collections/${collection}/points/count`, JSON.stringify({ exact: true }));
    return performance.now() - t0;
  };
  const warm = Math.min(2, SECONDS);
  const load = async (c: Case, bodies: string[]): Promise<void> => {
    const path = `/collections/${c.collection}/points/query`;
    progress(`${c.name}: autocannon warm-up ${warm} s, then ${SECONDS} s, ${CONNECTIONS} connections`);
    await autocannonRun(url, path, bodies, warm, CONNECTIONS);
    await drain(c.collection);
    c.load = loadFigures(await autocannonRun(url, path, bodies, SECONDS, CONNECTIONS));
    c.drainMs = await drain(c.collection);
    const l = c.load;
    progress(
      `${c.name}: ${l.qps.toFixed(1)} QPS p50 ${l.latencyMs.p50} ms p99 ${l.latencyMs.p99} ms, drained in ${c.drainMs.toFixed(0)} ms` +
        (l.non2xx + l.errors + l.timeouts > 0 ? ` (non-2xx ${l.non2xx}, errors ${l.errors}, timeouts ${l.timeouts}, codes ${JSON.stringify(l.statusCodes)})` : ''),
    );
  };

  const sparseQueryJson = (q: number): string => sparseJson(queries, q);
  const sparseBodies = Array.from({ length: QUERIES }, (_, q) => `{"query":${sparseQueryJson(q)},"using":"text","limit":${K}}`);

  /** Sequential queries: every one timed, the first CHECK checked against `truth`. */
  const sequential = async (c: Case, truth: Ranked[]): Promise<void> => {
    const lat: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const t1 = performance.now();
      const json = await callOk(url, 'POST', `/collections/${c.collection}/points/query`, sparseBodies[q]);
      lat.push(performance.now() - t1);
      if (q < CHECK) checkAnswer(c.check, q, rankedOf(json, `${c.name} query ${q}`), truth[q]!, K);
    }
    c.sequentialLatencyMs = latencyStats(lat);
    reportCheck(c.name, c.check);
    progress(`${c.name}: 1-client p50 ${c.sequentialLatencyMs.p50.toFixed(1)} ms p99 ${c.sequentialLatencyMs.p99.toFixed(1)} ms`);
  };

  const newCase = (name: string, collection: string, description: string): Case => ({
    name,
    collection,
    description,
    check: newCheck(),
    sparseLeg: null,
    denseLegRecall: null,
    legLatencyMs: null,
    sequentialLatencyMs: { p50: Number.NaN, p99: Number.NaN, mean: Number.NaN },
    load: null,
    drainMs: null,
  });
  const cases: Case[] = [];
  const ingest: Ingest[] = [];

  // 1. sparse only, modifier none
  await callOk(url, 'PUT', `/collections/${SPARSE}`, JSON.stringify({ sparse_vectors: { text: {} } }));
  ingest.push(await ingestInto(SPARSE, (i) => `{"text":${sparseJson(docs, i)}}`));
  const plain = newCase('sparse', SPARSE, `query {indices, values} using text, limit ${K}, modifier none`);
  cases.push(plain);
  await sequential(plain, truthPlain);
  await load(plain, sparseBodies);

  // 2. the same collection with the idf modifier
  t = performance.now();
  await callOk(url, 'PATCH', `/collections/${SPARSE}`, JSON.stringify({ sparse_vectors: { text: { modifier: 'idf' } } }));
  const patchMs = performance.now() - t;
  const patched = ((await callOk(url, 'GET', `/collections/${SPARSE}`)) as CollectionInfo).result;
  const modifierAfter = patched?.config?.params?.sparse_vectors?.text?.modifier ?? null;
  progress(`PATCH modifier idf in ${patchMs.toFixed(0)} ms; collection now reports modifier ${String(modifierAfter)}`);
  const withIdf = newCase('sparse idf', SPARSE, `the same after PATCH sparse_vectors.text.modifier = idf`);
  cases.push(withIdf);
  await sequential(withIdf, truthIdf);
  await load(withIdf, sparseBodies);

  // 3. hybrid: dense + sparse, prefetch both, fuse with rrf
  await callOk(
    url,
    'PUT',
    `/collections/${HYBRID}`,
    JSON.stringify({ vectors: { dense: { size: DENSE_DIM, distance: 'Cosine' } }, sparse_vectors: { text: {} } }),
  );
  ingest.push(await ingestInto(HYBRID, (i) => `{"dense":${rowJson(denseDocs, i, DENSE_DIM)},"text":${sparseJson(docs, i)}}`));
  const denseJson = (q: number): string => JSON.stringify(row(denseQueries, q, DENSE_DIM));
  const hybridBodies = Array.from(
    { length: QUERIES },
    (_, q) =>
      `{"prefetch":[{"query":${denseJson(q)},"using":"dense","limit":${PREFETCH_LIMIT}},` +
      `{"query":${sparseQueryJson(q)},"using":"text","limit":${PREFETCH_LIMIT}}],"query":{"fusion":"rrf"},"limit":${K}}`,
  );
  const hybrid: Case = newCase(
    'hybrid rrf',
    HYBRID,
    `prefetch [dense ${DENSE_DIM}-d Cosine, sparse] limit ${PREFETCH_LIMIT} each, fusion rrf, limit ${K}`,
  );
  hybrid.check = newCheck(false);
  hybrid.sparseLeg = newCheck();
  cases.push(hybrid);
  {
    const lat: number[] = [];
    const denseFound: number[][] = [];
    const denseLat: number[] = [];
    const sparseLat: number[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const t1 = performance.now();
      const json = await callOk(url, 'POST', `/collections/${HYBRID}/points/query`, hybridBodies[q]);
      lat.push(performance.now() - t1);
      if (q >= CHECK) continue;
      const fused = rankedOf(json, `hybrid query ${q}`);
      // the two legs alone, as the server answers them
      let t2 = performance.now();
      const denseLeg = rankedOf(
        await callOk(url, 'POST', `/collections/${HYBRID}/points/query`, `{"query":${denseJson(q)},"using":"dense","limit":${PREFETCH_LIMIT}}`),
        `hybrid dense leg ${q}`,
      );
      denseLat.push(performance.now() - t2);
      t2 = performance.now();
      const sparseLeg = rankedOf(
        await callOk(url, 'POST', `/collections/${HYBRID}/points/query`, `{"query":${sparseQueryJson(q)},"using":"text","limit":${PREFETCH_LIMIT}}`),
        `hybrid sparse leg ${q}`,
      );
      sparseLat.push(performance.now() - t2);
      checkAnswer(hybrid.sparseLeg, q, sparseLeg, truthPlain[q]!, PREFETCH_LIMIT);
      denseFound.push(denseLeg.ids);
      const expected = rrfLocal([denseLeg, sparseLeg], K);
      // fused answers are compared by ids only (hybrid.check does not compare scores)
      checkAnswer(hybrid.check, q, fused, { ids: expected, scores: expected.map(() => Number.NaN) }, K);
    }
    hybrid.denseLegRecall = recallOf(denseFound, denseTruth);
    hybrid.legLatencyMs = { dense: latencyStats(denseLat), sparse: latencyStats(sparseLat) };
    hybrid.sequentialLatencyMs = latencyStats(lat);
    reportCheck('hybrid sparse leg', hybrid.sparseLeg);
    reportCheck('hybrid fused vs local rrf', hybrid.check);
    progress(
      `hybrid: dense leg recall@${PREFETCH_LIMIT} ${hybrid.denseLegRecall.toFixed(4)}; 1-client p50 ${hybrid.sequentialLatencyMs.p50.toFixed(1)} ms ` +
        `p99 ${hybrid.sequentialLatencyMs.p99.toFixed(1)} ms; legs alone 1-client p50 dense ${hybrid.legLatencyMs.dense.p50.toFixed(1)} ms, ` +
        `sparse ${hybrid.legLatencyMs.sparse.p50.toFixed(1)} ms`,
    );
  }
  await load(hybrid, hybridBodies);
  const memAfter = memOf(server.pid);

  const problems = [...server.problems];
  const stop = await stopServer(server);
  tracked.current = null;

  const report: Report = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    params: {
      N,
      nnz: NNZ,
      vocab: VOCAB,
      zipf: ZIPF,
      queries: QUERIES,
      qnnz: { mean: queries.terms.length / QUERIES, min: QMIN, max: QMAX },
      checkedQueries: CHECK,
      k: K,
      seconds: SECONDS,
      connections: CONNECTIONS,
      batch: BATCH,
      ingestConcurrency: INGEST_CONCURRENCY,
      shards: SHARDS,
      denseDim: DENSE_DIM,
      prefetchLimit: PREFETCH_LIMIT,
      rrfK: RRF_K,
    },
    env: { node: process.version, cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', commit: gitCommit(), loadavgStart: loadStart, loadavgEnd: loadavg() },
    data: {
      generateS,
      bruteForceS,
      termsUsed,
      maxDf,
      maxDfFraction: maxDf / N,
      termsInHalfTheDocs: termsInHalf,
      postingsPerQuery: { mean: postings.reduce((a, b) => a + b, 0) / QUERIES, max: Math.max(...postings), min: Math.min(...postings) },
      candidatesPerQuery: { mean: candidates.reduce((a, b) => a + b, 0) / Math.max(1, CHECK), max: Math.max(0, ...candidates) },
    },
    ingest,
    memory: { rssEmpty: memEmpty.rss, rssAfterLoad: memAfter.rss, hwmAfterLoad: memAfter.hwm },
    patch: { ms: patchMs, modifierAfter },
    cases,
    serverStop: { ms: stop.ms, code: stop.code, signal: stop.signal, killed: stop.killed },
    serverProblems: problems.slice(0, 200),
  };

  printTables(report);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `sparse-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`\nwritten ${file}\n`);
}

function reportCheck(name: string, c: Check): void {
  progress(
    `${name}: ${c.checked} checked, ${c.idMismatches} id mismatches` +
      (c.scoresCompared
        ? `, ${c.scoreMismatches} score mismatches (max rel diff ${c.maxScoreRelDiff.toExponential(2)}), ${c.tiesAtCut} ties at the cut`
        : ' (ids only)'),
  );
  for (const e of c.examples) {
    progress(`  query ${e.query}: expected ${e.expected.map((p) => `${p.id}:${p.score}`).join(' ')}`);
    progress(`  query ${e.query}:      got ${e.got.map((p) => `${p.id}:${p.score}`).join(' ')}`);
  }
}

// ---------------------------------------------------------------------------------------------
// output

function table(head: string[], rows: string[][], leftCols = 1): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, i) => (i < leftCols ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
}

function printTables(r: Report): void {
  const f = (v: number, digits = 0): string =>
    Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
  const ms = (v: number): string => f(v, v < 10 ? 2 : 1);
  const mib = (b: number): string => f(b / 1048576);
  const p = r.params;
  const d = r.data;
  const out: string[] = [];
  out.push(
    `Quiver sparse bench: N=${p.N} documents x ${p.nnz} terms over a ${p.vocab}-term vocabulary (Zipf s=${p.zipf}), ${p.queries} queries of ` +
      `${p.qnnz.min}..${p.qnnz.max} terms (mean ${f(p.qnnz.mean, 1)}), k=${p.k}, ${p.seconds} s per load run, ${p.connections} connections`,
  );
  out.push(
    `node ${r.env.node}, ${r.env.cores} cores (${r.env.cpu}), commit ${String(r.env.commit)}; ${p.shards} shards; ` +
      `load average at start ${r.env.loadavgStart.map((x) => x.toFixed(2)).join(' ')}, at end ${r.env.loadavgEnd.map((x) => x.toFixed(2)).join(' ')}`,
  );
  out.push('autocannon runs in the bench process on the same machine; other work on the machine makes absolute figures noisy');
  out.push(
    `data: ${f(d.termsUsed)} terms used; commonest term in ${f(d.maxDf)} docs (${f(100 * d.maxDfFraction, 1)}%); ${d.termsInHalfTheDocs} terms in >= 50% of docs; ` +
      `postings walked per query mean ${f(d.postingsPerQuery.mean)} (min ${f(d.postingsPerQuery.min)}, max ${f(d.postingsPerQuery.max)}); ` +
      `docs scored per query mean ${f(d.candidatesPerQuery.mean)} (max ${f(d.candidatesPerQuery.max)}) of ${f(p.N)}`,
  );
  out.push('');

  out.push(`ingest: PUT /collections/{c}/points?wait=true, ${p.batch} points per request, ${p.ingestConcurrency} in flight; RSS = server process VmRSS (main + shard worker threads)`);
  out.push(
    ...table(
      ['collection', 'docs', 'seconds', 'docs/s', 'JSON MiB', 'batch p50 (ms)', 'batch p99 (ms)', 'RSS before (MiB)', 'RSS after (MiB)', 'RSS B/doc'],
      r.ingest.map((g) => [
        g.collection,
        f(g.docs),
        f(g.seconds, 1),
        f(g.rate),
        mib(g.bodyBytes),
        f(g.batchMs.p50),
        f(g.batchMs.p99),
        mib(g.rssBefore),
        mib(g.rssAfter),
        f(g.bytesPerDoc),
      ]),
    ),
  );
  out.push(
    `server RSS empty ${mib(r.memory.rssEmpty)} MiB, after all load runs ${mib(r.memory.rssAfterLoad)} MiB (peak ${mib(r.memory.hwmAfterLoad)} MiB); ` +
      `PATCH to idf took ${f(r.patch.ms)} ms, collection then reports modifier ${String(r.patch.modifierAfter)}`,
  );
  out.push('');

  out.push(
    `search: POST /collections/{c}/points/query; checked = first ${p.checkedQueries} queries vs brute force over all documents (sparse) or vs RRF recomputed ` +
      `from the two legs the server returns alone (hybrid); 1-client = ${p.queries} sequential requests; load = autocannon ${p.connections} connections`,
  );
  out.push(
    ...table(
      ['case', 'checked', 'id mismatch', 'score mismatch', 'ties at cut', '1-client p50 (ms)', '1-client p99 (ms)', 'QPS', 'p50 (ms)', 'p99 (ms)', 'non2xx/err/timeout', 'drain (ms)'],
      r.cases.map((c) => [
        c.name,
        f(c.check.checked),
        f(c.check.idMismatches),
        c.check.scoresCompared ? f(c.check.scoreMismatches) : 'n/a',
        c.check.scoresCompared ? f(c.check.tiesAtCut) : 'n/a',
        ms(c.sequentialLatencyMs.p50),
        ms(c.sequentialLatencyMs.p99),
        c.load === null ? 'n/a' : f(c.load.qps, 1),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p50),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p99),
        c.load === null ? 'n/a' : `${c.load.non2xx}/${c.load.errors}/${c.load.timeouts}`,
        c.drainMs === null ? 'n/a' : f(c.drainMs),
      ]),
    ),
  );
  for (const c of r.cases) out.push(`  ${c.name}: ${c.description}`);
  const h = r.cases.find((c) => c.sparseLeg !== null);
  if (h?.sparseLeg) {
    out.push(
      `  hybrid legs: sparse leg (limit ${p.prefetchLimit}) vs brute force: ${h.sparseLeg.checked} checked, ${h.sparseLeg.idMismatches} id mismatches, ` +
        `${h.sparseLeg.scoreMismatches} score mismatches, ${h.sparseLeg.tiesAtCut} ties at the cut; dense leg (HNSW) recall@${p.prefetchLimit} ${f(h.denseLegRecall ?? Number.NaN, 4)}`,
    );
    if (h.legLatencyMs !== null) {
      const l = h.legLatencyMs;
      out.push(
        `  hybrid legs sent alone, 1-client over ${h.sparseLeg.checked} queries: dense p50 ${ms(l.dense.p50)} / p99 ${ms(l.dense.p99)} ms, ` +
          `sparse p50 ${ms(l.sparse.p50)} / p99 ${ms(l.sparse.p99)} ms`,
      );
    }
  }
  out.push(
    `server warnings/errors logged: ${r.serverProblems.length}; stop ${r.serverStop.killed ? 'needed SIGKILL' : `on SIGTERM in ${f(r.serverStop.ms)} ms (code ${String(r.serverStop.code)})`}`,
  );
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------

runBench(main, TIMEOUT_S);
