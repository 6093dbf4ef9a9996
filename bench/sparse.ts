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
// not (bench/common.ts). Under bench/sparse/: the configuration (config.ts), the data and its
// exact arithmetic (data.ts, prepare.ts), answer checks (check.ts), figures and tables.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  autocannonRun,
  callOk,
  cleanups,
  gitCommit,
  latencyStats,
  loadFigures,
  memOf,
  progress,
  recallOf,
  RESULTS_DIR,
  row,
  rowJson,
  runBench,
  startServer,
  stopServer,
  tracked,
} from './common.js';
import { checkAnswer, newCheck, rankedOf, reportCheck } from './sparse/check.js';
import {
  BATCH,
  CHECK,
  CONNECTIONS,
  DENSE_DIM,
  HYBRID,
  INGEST_CONCURRENCY,
  K,
  N,
  NNZ,
  PREFETCH_LIMIT,
  QMAX,
  QMIN,
  QNNZ,
  QUERIES,
  RRF_K,
  SECONDS,
  SHARDS,
  SPARSE,
  TIMEOUT_S,
  VOCAB,
  ZIPF,
} from './sparse/config.js';
import { rrfLocal, sparseJson, type Ranked } from './sparse/data.js';
import type { Case, Ingest, Report } from './sparse/figures.js';
import { printTables } from './sparse/output.js';
import { prepare } from './sparse/prepare.js';

// ---------------------------------------------------------------------------------------------
// answers

interface CollectionInfo {
  result?: {
    points_count?: number;
    config?: { params?: { shard_number?: number; sparse_vectors?: Record<string, { modifier?: string }> } };
  };
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

  const { docs, queries, denseDocs, denseQueries, generateS, termsUsed, maxDf, termsInHalf, postings, truthPlain, truthIdf, denseTruth, candidates, bruteForceS } = prepare();

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
  const t = performance.now();
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

// ---------------------------------------------------------------------------------------------

runBench(main, TIMEOUT_S);
