// `npm run bench`: Quiver's ingest rate, recall@10, search QPS and latency under autocannon load,
// memory per point and restart time, each beside raw in-process hnswlib-node on the same data in
// the same run (DESIGN.md section 6). Random vectors from a seeded PRNG, Cosine distance.
//
// Sized by env: BENCH_N (100000 points), BENCH_DIM (128), BENCH_QUERIES (200), BENCH_SECONDS (10
// per autocannon run), BENCH_SHARDS (os.availableParallelism()), BENCH_CONNECTIONS (32),
// BENCH_INGEST_CONCURRENCY (4), BENCH_BATCH (1000), BENCH_TIMEOUT_S (1800: the whole run is
// aborted, and the server killed, after this long).
//
// Progress goes to stderr; the result table to stdout; the same figures as JSON to
// bench/results/<timestamp>.json. The server is started from dist/src/main/index.js in a child
// process on loopback with a temp data dir, and is always stopped (SIGTERM, then SIGKILL) on the
// way out, error or not.

import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import hnswlib from 'hnswlib-node';
import {
  autocannonRun as autocannonRunWith,
  bruteForce as bruteForceAmong,
  callOk,
  cleanups,
  envInt,
  gitCommit,
  idsOf,
  latencyStats,
  loadFigures,
  memOf,
  normalised as normalisedDim,
  progress,
  randomMicros,
  recallOf,
  RESULTS_DIR,
  row as rowDim,
  rowJson as rowJsonDim,
  runBench,
  startServer as startServerWith,
  stopServer,
  tracked,
  type AcResult,
  type LoadFigures,
} from './common.js';

const { HierarchicalNSW } = hnswlib;

// ---------------------------------------------------------------------------------------------
// configuration

const N = envInt('BENCH_N', 100_000);
const DIM = envInt('BENCH_DIM', 128);
const QUERIES = envInt('BENCH_QUERIES', 200);
const SECONDS = envInt('BENCH_SECONDS', 10);
const SHARDS = envInt('BENCH_SHARDS', availableParallelism());
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const INGEST_CONCURRENCY = envInt('BENCH_INGEST_CONCURRENCY', 4);
const BATCH = envInt('BENCH_BATCH', 1000);
const TIMEOUT_S = envInt('BENCH_TIMEOUT_S', 1800);
const K = 10;
const M = 16;
const EF_CONSTRUCTION = 100;
const EF_SEARCH = 100;
const HNSW_SEED = 100;
const DATA_SEED = 1;
const QUERY_SEED = 2;
const COLLECTION = 'bench';

// Shared helpers (bench/common.ts) bound to this bench's dimension, shard and connection counts.
const row = (micros: Int32Array, i: number): number[] => rowDim(micros, i, DIM);
const rowJson = (micros: Int32Array, i: number): string => rowJsonDim(micros, i, DIM);
const normalised = (micros: Int32Array, n: number): Float32Array => normalisedDim(micros, n, DIM);
const bruteForce = (data: Float32Array, queries: Float32Array, nq: number): number[][] => bruteForceAmong(data, queries, nq, DIM, K, N);
const startServer = (dataDir: string): ReturnType<typeof startServerWith> => startServerWith(dataDir, SHARDS);
const autocannonRun = (url: string, path: string, bodies: string[], seconds: number): Promise<AcResult> =>
  autocannonRunWith(url, path, bodies, seconds, CONNECTIONS);

function diskUsage(dir: string): { apparent: number; allocated: number } {
  let apparent = 0;
  let allocated = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const sub = diskUsage(p);
      apparent += sub.apparent;
      allocated += sub.allocated;
    } else if (e.isFile()) {
      const st = statSync(p);
      apparent += st.size;
      allocated += st.blocks * 512;
    }
  }
  return { apparent, allocated };
}

// ---------------------------------------------------------------------------------------------
// the run

async function main(): Promise<void> {
  const started = new Date();
  progress(`N=${N} dim=${DIM} queries=${QUERIES} seconds=${SECONDS} shards=${SHARDS} connections=${CONNECTIONS} cores=${availableParallelism()}`);

  // data and ground truth
  let t = performance.now();
  const data = randomMicros(N, DIM, DATA_SEED);
  const queriesMicros = randomMicros(QUERIES, DIM, QUERY_SEED);
  const dataNorm = normalised(data, N);
  const queriesNorm = normalised(queriesMicros, QUERIES);
  const queryRows = Array.from({ length: QUERIES }, (_, q) => row(queriesMicros, q));
  progress(`generated data in ${((performance.now() - t) / 1000).toFixed(1)} s; brute force ground truth...`);
  t = performance.now();
  const truth = bruteForce(dataNorm, queriesNorm, QUERIES);
  const bruteForceS = (performance.now() - t) / 1000;
  progress(`ground truth in ${bruteForceS.toFixed(1)} s`);

  // 1. raw hnswlib-node in-process
  progress('raw hnswlib-node: building');
  const rssBefore = process.memoryUsage().rss;
  const index = new HierarchicalNSW('cosine', DIM);
  index.initIndex(N, M, EF_CONSTRUCTION, HNSW_SEED);
  t = performance.now();
  for (let i = 0; i < N; i++) index.addPoint(row(data, i), i);
  const rawBuildS = (performance.now() - t) / 1000;
  const rawRssDelta = process.memoryUsage().rss - rssBefore;
  progress(`raw build ${rawBuildS.toFixed(1)} s`);

  index.setEf(EF_SEARCH);
  const rawFound: number[][] = [];
  const rawLat: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const t1 = performance.now();
    const r = index.searchKnn(queryRows[q]!, K);
    rawLat.push(performance.now() - t1);
    rawFound.push(r.neighbors);
  }
  const rawRecall = recallOf(rawFound, truth);
  // QPS: cycle the queries for at least max(2 s, SECONDS / 2)
  const qpsWindowMs = Math.max(2000, (SECONDS * 1000) / 2);
  let rawSearches = 0;
  t = performance.now();
  while (performance.now() - t < qpsWindowMs) {
    for (let q = 0; q < QUERIES; q++) index.searchKnn(queryRows[q]!, K);
    rawSearches += QUERIES;
  }
  const rawQps = rawSearches / ((performance.now() - t) / 1000);

  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const indexFile = join(scratch, 'raw.hnsw');
  t = performance.now();
  index.writeIndexSync(indexFile);
  const rawWriteS = (performance.now() - t) / 1000;
  const rawIndexBytes = statSync(indexFile).size;
  const reread = new HierarchicalNSW('cosine', DIM);
  t = performance.now();
  reread.readIndexSync(indexFile);
  const rawReadS = (performance.now() - t) / 1000;
  if (reread.getCurrentCount() !== N) throw new Error(`raw index re-read holds ${reread.getCurrentCount()} points, expected ${N}`);
  rmSync(indexFile, { force: true });
  progress(`raw recall@10 ${rawRecall.toFixed(4)}, ${rawQps.toFixed(0)} QPS single thread`);

  const raw = {
    buildS: rawBuildS,
    insertRate: N / rawBuildS,
    recall: rawRecall,
    qpsSingleThread: rawQps,
    latencyMs: latencyStats(rawLat),
    rssDeltaBytes: rawRssDelta,
    rssDeltaPerPoint: rawRssDelta / N,
    indexFileBytes: rawIndexBytes,
    indexFileBytesPerPoint: rawIndexBytes / N,
    writeIndexS: rawWriteS,
    readIndexS: rawReadS,
  };

  // 2. Quiver
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir);
  progress(`quiver: starting server (${SHARDS} shards)`);
  let server = await startServer(dataDir);
  tracked.current = server;
  const firstReady = await server.ready;
  const firstListeningMs = server.listeningMs;
  const url = server.url;
  const memEmpty = memOf(server.pid);
  progress(`quiver listening on ${url}, engine ready after ${firstReady.readyMs.toFixed(0)} ms`);

  await callOk(url, 'PUT', `/collections/${COLLECTION}`, JSON.stringify({ vectors: { size: DIM, distance: 'Cosine' } }));
  const memCollection = memOf(server.pid);

  // request bodies prepared before timing, so the timer sees the server, not JSON building here
  const batches: Buffer[] = [];
  for (let start = 0; start < N; start += BATCH) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(N, start + BATCH); i++) parts.push(`{"id":${i},"vector":${rowJson(data, i)}}`);
    batches.push(Buffer.from(`{"points":[${parts.join(',')}]}`));
  }
  const bodyBytes = batches.reduce((a, b) => a + b.length, 0);
  progress(`quiver: upserting ${batches.length} batches (${(bodyBytes / 1048576).toFixed(0)} MiB JSON), ${INGEST_CONCURRENCY} in flight`);

  const batchMs: number[] = [];
  let nextBatch = 0;
  let peakRss = 0;
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, memOf(server.pid).rss);
    } catch {
      // server gone: the upsert will fail and say so
    }
  }, 250);
  t = performance.now();
  try {
    await Promise.all(
      Array.from({ length: INGEST_CONCURRENCY }, async () => {
        while (nextBatch < batches.length) {
          const b = nextBatch++;
          const t1 = performance.now();
          const r = await fetch(`${url}/collections/${COLLECTION}/points?wait=true`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: batches[b]!,
            signal: AbortSignal.timeout(300_000),
          });
          const text = await r.text();
          if (r.status !== 200) throw new Error(`upsert batch ${b} -> ${r.status}: ${text.slice(0, 500)}`);
          batchMs.push(performance.now() - t1);
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  const ingestS = (performance.now() - t) / 1000;
  batches.length = 0;
  progress(`quiver ingest ${ingestS.toFixed(1)} s (${(N / ingestS).toFixed(0)} points/s)`);

  const countRes = (await callOk(url, 'POST', `/collections/${COLLECTION}/points/count`, JSON.stringify({ exact: true }))) as {
    result?: { count?: number };
  };
  const count = countRes.result?.count;
  if (count !== N) throw new Error(`after ingest the collection counts ${String(count)} points, expected ${N}`);
  const memIngest = memOf(server.pid);
  const disk = diskUsage(dataDir);

  // recall and unloaded latency, one request at a time
  const searchBodies = queryRows.map((v) => JSON.stringify({ vector: v, limit: K }));
  const queryBodies = queryRows.map((v) => JSON.stringify({ query: v, limit: K }));
  async function sequential(path: string, bodies: string[], pick: (json: unknown) => unknown): Promise<{ found: number[][]; lat: number[] }> {
    const found: number[][] = [];
    const lat: number[] = [];
    for (let q = 0; q < bodies.length; q++) {
      const t1 = performance.now();
      const json = await callOk(url, 'POST', path, bodies[q]);
      lat.push(performance.now() - t1);
      found.push(idsOf(pick(json), `${path} query ${q}`));
    }
    return { found, lat };
  }
  const pickSearch = (j: unknown): unknown => (j as { result?: unknown }).result;
  const pickQuery = (j: unknown): unknown => (j as { result?: { points?: unknown } }).result?.points;
  const seqSearch = await sequential(`/collections/${COLLECTION}/points/search`, searchBodies, pickSearch);
  const seqQuery = await sequential(`/collections/${COLLECTION}/points/query`, queryBodies, pickQuery);
  const searchRecall = recallOf(seqSearch.found, truth);
  const queryRecall = recallOf(seqQuery.found, truth);
  progress(`quiver recall@10 search ${searchRecall.toFixed(4)}, query ${queryRecall.toFixed(4)}`);

  // load
  progress(`autocannon warm-up (${Math.min(2, SECONDS)} s)`);
  await autocannonRun(url, `/collections/${COLLECTION}/points/search`, searchBodies, Math.min(2, SECONDS));
  progress(`autocannon /points/search (${SECONDS} s, ${CONNECTIONS} connections)`);
  const loadSearch = loadFigures(await autocannonRun(url, `/collections/${COLLECTION}/points/search`, searchBodies, SECONDS));
  progress(`search ${loadSearch.qps.toFixed(0)} QPS p50 ${loadSearch.latencyMs.p50} ms p99 ${loadSearch.latencyMs.p99} ms`);
  progress(`autocannon /points/query (${SECONDS} s, ${CONNECTIONS} connections)`);
  const loadQuery = loadFigures(await autocannonRun(url, `/collections/${COLLECTION}/points/query`, queryBodies, SECONDS));
  progress(`query ${loadQuery.qps.toFixed(0)} QPS p50 ${loadQuery.latencyMs.p50} ms p99 ${loadQuery.latencyMs.p99} ms`);
  const memLoad = memOf(server.pid);

  // restart on the same data dir
  progress('restart: SIGTERM, then start again on the same data dir');
  const problemsFirst = [...server.problems];
  const stop1 = await stopServer(server);
  if (stop1.killed) progress(`server did not exit within 30 s of SIGTERM; killed`);
  const t2 = performance.now();
  server = await startServer(dataDir);
  tracked.current = server;
  const again = await server.ready;
  const restartReadyMs = performance.now() - t2;
  const memRestart = memOf(server.pid);
  const countAfter = (await callOk(server.url, 'POST', `/collections/${COLLECTION}/points/count`, JSON.stringify({ exact: true }))) as {
    result?: { count?: number };
  };
  const restartCount = countAfter.result?.count ?? null;
  const seqAfter = await (async () => {
    const found: number[][] = [];
    for (let q = 0; q < QUERIES; q++) {
      const json = await callOk(server.url, 'POST', `/collections/${COLLECTION}/points/search`, searchBodies[q]);
      found.push(idsOf(pickSearch(json), `search after restart, query ${q}`));
    }
    return found;
  })();
  const restartRecall = recallOf(seqAfter, truth);
  const problemsSecond = [...server.problems];
  const stop2 = await stopServer(server);
  progress(`restart: engine ready after ${restartReadyMs.toFixed(0)} ms, ${String(restartCount)} points, recall ${restartRecall.toFixed(4)}`);

  const quiver = {
    shards: SHARDS,
    firstStart: { listeningMs: firstListeningMs, engineReadyMs: firstReady.readyMs },
    ingest: {
      seconds: ingestS,
      rate: N / ingestS,
      batches: batchMs.length,
      batchSize: BATCH,
      concurrency: INGEST_CONCURRENCY,
      bodyBytes,
      batchLatencyMs: latencyStats(batchMs),
    },
    recall: { search: searchRecall, query: queryRecall, searchAfterRestart: restartRecall },
    sequentialLatencyMs: { search: latencyStats(seqSearch.lat), query: latencyStats(seqQuery.lat) },
    load: { search: loadSearch, query: loadQuery },
    memory: {
      rssEmpty: memEmpty.rss,
      rssAfterCreate: memCollection.rss,
      rssAfterIngest: memIngest.rss,
      rssAfterLoad: memLoad.rss,
      rssAfterRestart: memRestart.rss,
      peakRssDuringIngest: Math.max(peakRss, memIngest.hwm),
      bytesPerPoint: (memIngest.rss - memEmpty.rss) / N,
      rssPerPointTotal: memIngest.rss / N,
      bytesPerPointAfterRestart: (memRestart.rss - memEmpty.rss) / N,
    },
    disk: { apparentBytes: disk.apparent, allocatedBytes: disk.allocated, bytesPerPoint: disk.allocated / N },
    restart: {
      shutdownMs: stop1.ms,
      shutdownExit: { code: stop1.code, signal: stop1.signal, killed: stop1.killed },
      listeningMs: server.listeningMs,
      engineReadyMs: restartReadyMs,
      serverLoadMs: again.loadMs,
      countAfter: restartCount,
    },
    finalStop: { ms: stop2.ms, code: stop2.code, signal: stop2.signal, killed: stop2.killed },
    serverProblems: [...problemsFirst, ...problemsSecond].slice(0, 200),
  };

  const report = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    params: { N, dim: DIM, queries: QUERIES, seconds: SECONDS, k: K, m: M, efConstruction: EF_CONSTRUCTION, efSearch: EF_SEARCH, connections: CONNECTIONS, distance: 'Cosine' },
    env: {
      node: process.version,
      cores: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      commit: gitCommit(),
    },
    bruteForceS,
    raw,
    quiver,
  };

  printTable(report);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`\nwritten ${file}\n`);
}

// ---------------------------------------------------------------------------------------------
// output

interface Report {
  params: { N: number; dim: number; queries: number; seconds: number; connections: number };
  env: { node: string; cores: number; cpu: string; commit: string | null };
  raw: {
    buildS: number;
    insertRate: number;
    recall: number;
    qpsSingleThread: number;
    latencyMs: { p50: number; p99: number };
    rssDeltaPerPoint: number;
    indexFileBytesPerPoint: number;
    readIndexS: number;
  };
  quiver: {
    shards: number;
    ingest: { seconds: number; rate: number; batchLatencyMs: { p50: number; p99: number } };
    recall: { search: number; query: number; searchAfterRestart: number };
    sequentialLatencyMs: { search: { p50: number; p99: number }; query: { p50: number; p99: number } };
    load: { search: LoadFigures; query: LoadFigures };
    memory: { rssEmpty: number; rssAfterIngest: number; peakRssDuringIngest: number; bytesPerPoint: number; bytesPerPointAfterRestart: number };
    disk: { bytesPerPoint: number };
    restart: { shutdownMs: number; listeningMs: number; engineReadyMs: number; serverLoadMs: number | null; countAfter: number | null };
  };
}

function printTable(r: Report): void {
  const f = (v: number, digits = 0): string => (Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a');
  const ratio = (a: number, b: number): string => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}x` : '');
  const mib = (b: number): string => `${(b / 1048576).toFixed(0)} MiB`;
  const rows: [string, string, string, string][] = [];
  const add = (name: string, q: string, raw = '', rat = ''): void => void rows.push([name, q, raw, rat]);
  const { raw, quiver: qv } = r;

  add('insert rate (points/s)', f(qv.ingest.rate), f(raw.insertRate), ratio(qv.ingest.rate, raw.insertRate));
  add('ingest / build time (s)', f(qv.ingest.seconds, 1), f(raw.buildS, 1), ratio(qv.ingest.seconds, raw.buildS));
  add('  upsert batch latency p50 / p99 (ms)', `${f(qv.ingest.batchLatencyMs.p50)} / ${f(qv.ingest.batchLatencyMs.p99)}`);
  add('recall@10 /points/search', f(qv.recall.search, 4), f(raw.recall, 4), ratio(qv.recall.search, raw.recall));
  add('recall@10 /points/query', f(qv.recall.query, 4), f(raw.recall, 4), ratio(qv.recall.query, raw.recall));
  add('1-client latency p50 search (ms)', f(qv.sequentialLatencyMs.search.p50, 2), f(raw.latencyMs.p50, 3), ratio(qv.sequentialLatencyMs.search.p50, raw.latencyMs.p50));
  add('1-client latency p99 search (ms)', f(qv.sequentialLatencyMs.search.p99, 2), f(raw.latencyMs.p99, 3), ratio(qv.sequentialLatencyMs.search.p99, raw.latencyMs.p99));
  add('1-client latency p50 / p99 query (ms)', `${f(qv.sequentialLatencyMs.query.p50, 2)} / ${f(qv.sequentialLatencyMs.query.p99, 2)}`);
  for (const [name, l] of [
    ['search', qv.load.search],
    ['query', qv.load.query],
  ] as const) {
    add(`QPS /points/${name} (${r.params.connections} conns; raw: 1 thread)`, f(l.qps), f(raw.qpsSingleThread), ratio(l.qps, raw.qpsSingleThread));
    add(`  latency p50 / p99 under load (ms)`, `${f(l.latencyMs.p50)} / ${f(l.latencyMs.p99)}`);
    add(`  non-2xx / errors / timeouts`, `${l.non2xx} / ${l.errors} / ${l.timeouts}`);
  }
  add('memory: bytes/point (RSS after ingest - empty)', f(qv.memory.bytesPerPoint), f(raw.rssDeltaPerPoint), ratio(qv.memory.bytesPerPoint, raw.rssDeltaPerPoint));
  add('  raw: hnswlib index file bytes/point', '', f(raw.indexFileBytesPerPoint), ratio(qv.memory.bytesPerPoint, raw.indexFileBytesPerPoint));
  add('  server RSS empty / after ingest / peak', `${mib(qv.memory.rssEmpty)} / ${mib(qv.memory.rssAfterIngest)} / ${mib(qv.memory.peakRssDuringIngest)}`);
  add('  bytes/point after restart', f(qv.memory.bytesPerPointAfterRestart));
  add('disk: bytes/point (data dir, allocated)', f(qv.disk.bytesPerPoint));
  add('restart: SIGTERM -> exit (ms)', f(qv.restart.shutdownMs));
  add('restart: spawn -> REST listening (ms)', f(qv.restart.listeningMs));
  add('restart: spawn -> engine ready (ms; raw: readIndex)', f(qv.restart.engineReadyMs), f(raw.readIndexS * 1000), ratio(qv.restart.engineReadyMs, raw.readIndexS * 1000));
  add('  server-reported load_ms / points after restart', `${qv.restart.serverLoadMs === null ? 'n/a' : f(qv.restart.serverLoadMs)} / ${String(qv.restart.countAfter)}`);
  add('  recall@10 search after restart', f(qv.recall.searchAfterRestart, 4));

  const head: [string, string, string, string] = ['metric', `Quiver (${qv.shards} shards)`, 'raw hnswlib-node', 'Quiver/raw'];
  const widths = [0, 1, 2, 3].map((c) => Math.max(head[c]!.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
  const out: string[] = [];
  out.push(
    `Quiver bench: N=${r.params.N} dim=${r.params.dim} Cosine, k=10, m=16 ef_construct=100 ef=100, ${r.params.queries} queries, ${r.params.seconds} s per load run`,
  );
  out.push(`node ${r.env.node}, ${r.env.cores} cores (${r.env.cpu}), commit ${String(r.env.commit)}; autocannon runs in the bench process on the same machine`);
  out.push('');
  out.push(line(head));
  out.push(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) out.push(line(row));
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------

runBench(main, TIMEOUT_S);
