// `npm run bench:filters`: filtered search, count and scroll in Quiver, with and without payload
// indexes, at 50%, 10%, 1% and 0.1% selectivity, with unfiltered search as the reference. Two
// collections hold the same seeded random vectors (Cosine) and payloads; one gets a keyword (or
// integer) index on each selectivity field, the other none.
//
// Measured per filter and collection: recall@10 of POST /points/query against exact filtered brute
// force computed here, one-client latency, QPS and latency p50/p99 under autocannon, and p50/p99
// of POST /points/count (exact) and POST /points/scroll (limit 100) over sequential requests.
// After each load run the bench waits for the server to work off what autocannon left queued
// (reported as `drain`), so one run's backlog does not slow the next.
// Every answer is checked: search results must satisfy the filter, counts must be exact, scroll
// pages must be the first matching ids. The plan each shard is expected to take (exact scoring
// up to hnsw_config.full_scan_threshold KB of candidate vectors, HNSW with the filter above) is computed
// from the shard placement and printed beside the figures.
//
// Sized by env: BENCH_N (100000 points), BENCH_DIM (128), BENCH_QUERIES (100), BENCH_SECONDS (5
// per autocannon run), BENCH_SHARDS (os.availableParallelism()), BENCH_CONNECTIONS (32),
// BENCH_SEQ_REQUESTS (200 sequential count / scroll requests per case), BENCH_FIELD_TYPE
// (keyword | integer), BENCH_FULL_SCAN_THRESHOLD (unset: the server's default),
// BENCH_INGEST_CONCURRENCY (4), BENCH_BATCH (1000), BENCH_TIMEOUT_S (3600: the whole run is
// aborted, and the server killed, after this long).
//
// Progress goes to stderr; the result tables to stdout; the same figures as JSON to
// bench/results/filters-<timestamp>.json. The server runs on loopback with a temp data dir and
// is always stopped on the way out, error or not (bench/common.ts). The configuration is in
// bench/filters/config.ts, the figures' shape in figures.ts, the tables in output.ts.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  autocannonRun,
  bruteForce,
  call,
  callOk,
  cleanups,
  gitCommit,
  idsOf,
  latencyStats,
  loadFigures,
  memOf,
  normalised,
  progress,
  randomMicros,
  recallOf,
  RESULTS_DIR,
  row,
  rowJson,
  runBench,
  startServer,
  stopServer,
  tracked,
} from './common.js';
import {
  BATCH,
  COLLECTIONS,
  CONNECTIONS,
  DATA_SEED,
  DIM,
  FIELD_TYPE,
  filterOf,
  FULL_SCAN_THRESHOLD,
  INGEST_CONCURRENCY,
  K,
  LEVELS,
  matches,
  N,
  payloadJson,
  QUERIES,
  QUERY_SEED,
  SCROLL_LIMIT,
  SECONDS,
  SEQ,
  SHARDS,
  TIMEOUT_S,
  type Level,
} from './filters/config.js';
import { planOf, type Case, type Plan, type Report } from './filters/figures.js';
import { printTables } from './filters/output.js';

// ---------------------------------------------------------------------------------------------
// the run

interface CountResponse {
  result?: { count?: number };
}
interface ScrollResponse {
  result?: { points?: unknown };
}
interface QueryResponse {
  result?: { points?: unknown };
}
interface CollectionInfo {
  result?: {
    points_count?: number;
    config?: { params?: { shard_number?: number }; hnsw_config?: { full_scan_threshold?: number; m?: number; ef_construct?: number } };
    payload_schema?: Record<string, { data_type?: string; points?: number }>;
  };
}

async function main(): Promise<void> {
  const started = new Date();
  progress(
    `N=${N} dim=${DIM} queries=${QUERIES} seconds=${SECONDS} shards=${SHARDS} connections=${CONNECTIONS} field=${FIELD_TYPE} ` +
      `full_scan_threshold=${FULL_SCAN_THRESHOLD ?? 'default'} cores=${availableParallelism()}`,
  );

  // data and ground truth
  let t = performance.now();
  const data = randomMicros(N, DIM, DATA_SEED);
  const queriesMicros = randomMicros(QUERIES, DIM, QUERY_SEED);
  const dataNorm = normalised(data, N, DIM);
  const queriesNorm = normalised(queriesMicros, QUERIES, DIM);
  const queryRows = Array.from({ length: QUERIES }, (_, q) => row(queriesMicros, q, DIM));
  const matchingIds = new Map<string, Int32Array>();
  for (const l of LEVELS) {
    const ids: number[] = [];
    for (let i = 0; i < N; i++) if (matches(l, i)) ids.push(i);
    matchingIds.set(l.field, Int32Array.from(ids));
  }
  progress(`generated data in ${((performance.now() - t) / 1000).toFixed(1)} s; exact (filtered) ground truth...`);
  t = performance.now();
  const truth = new Map<string, number[][]>();
  truth.set('none', bruteForce(dataNorm, queriesNorm, QUERIES, DIM, K, N));
  for (const l of LEVELS) truth.set(l.field, bruteForce(dataNorm, queriesNorm, QUERIES, DIM, K, matchingIds.get(l.field)!));
  const bruteForceS = (performance.now() - t) / 1000;
  progress(`ground truth in ${bruteForceS.toFixed(1)} s`);

  // the server
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-bench-filters-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  const dataDir = join(scratch, 'data');
  mkdirSync(dataDir);
  progress(`quiver: starting server (${SHARDS} shards)`);
  const server = await startServer(dataDir, SHARDS);
  tracked.current = server;
  await server.ready;
  const url = server.url;
  const memEmpty = memOf(server.pid);
  progress(`quiver listening on ${url}`);

  // request bodies prepared once, sent to both collections
  const batches: Buffer[] = [];
  for (let start = 0; start < N; start += BATCH) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(N, start + BATCH); i++) parts.push(`{"id":${i},"vector":${rowJson(data, i, DIM)},"payload":${payloadJson(i)}}`);
    batches.push(Buffer.from(`{"points":[${parts.join(',')}]}`));
  }

  const ingest: Record<string, { seconds: number; rate: number }> = {};
  const indexBuildMs: Record<string, number> = {};
  for (const c of COLLECTIONS) {
    const body: Record<string, unknown> = { vectors: { size: DIM, distance: 'Cosine' } };
    if (FULL_SCAN_THRESHOLD !== null) body.hnsw_config = { full_scan_threshold: FULL_SCAN_THRESHOLD };
    await callOk(url, 'PUT', `/collections/${c.name}`, JSON.stringify(body));
    progress(`${c.name}: upserting ${batches.length} batches, ${INGEST_CONCURRENCY} in flight`);
    let next = 0;
    t = performance.now();
    await Promise.all(
      Array.from({ length: INGEST_CONCURRENCY }, async () => {
        while (next < batches.length) {
          const b = next++;
          const r = await fetch(`${url}/collections/${c.name}/points?wait=true`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: batches[b]!,
            signal: AbortSignal.timeout(300_000),
          });
          const text = await r.text();
          if (r.status !== 200) throw new Error(`${c.name}: upsert batch ${b} -> ${r.status}: ${text.slice(0, 500)}`);
        }
      }),
    );
    const s = (performance.now() - t) / 1000;
    ingest[c.name] = { seconds: s, rate: N / s };
    progress(`${c.name}: ingest ${s.toFixed(1)} s (${(N / s).toFixed(0)} points/s)`);
    if (c.indexed) {
      // indexes built after the data is in: each build walks every point's payload
      for (const l of LEVELS) {
        const t1 = performance.now();
        await callOk(url, 'PUT', `/collections/${c.name}/index?wait=true`, JSON.stringify({ field_name: l.field, field_schema: FIELD_TYPE }));
        indexBuildMs[l.field] = performance.now() - t1;
      }
      progress(`${c.name}: ${FIELD_TYPE} indexes built in ${LEVELS.map((l) => `${l.field} ${indexBuildMs[l.field]!.toFixed(0)} ms`).join(', ')}`);
    }
  }
  batches.length = 0;
  const memLoaded = memOf(server.pid);

  // what the server reports, and the plan each filter should take
  const infos: Record<string, CollectionInfo['result']> = {};
  for (const c of COLLECTIONS) {
    const info = ((await callOk(url, 'GET', `/collections/${c.name}`)) as CollectionInfo).result;
    infos[c.name] = info;
    if (info?.points_count !== N) throw new Error(`${c.name} holds ${String(info?.points_count)} points, expected ${N}`);
    if (c.indexed) {
      for (const l of LEVELS) {
        const s = info.payload_schema?.[l.field];
        if (s?.points !== N) throw new Error(`${c.name}: index on ${l.field} covers ${String(s?.points)} points, expected ${N}`);
      }
    } else if (Object.keys(info.payload_schema ?? {}).length > 0) {
      throw new Error(`${c.name} unexpectedly has payload indexes: ${JSON.stringify(info.payload_schema)}`);
    }
  }
  const first = infos[COLLECTIONS[0].name];
  const shardNumber = first?.config?.params?.shard_number ?? SHARDS;
  const fullScanThreshold = first?.config?.hnsw_config?.full_scan_threshold ?? Number.NaN;
  const plans: Record<string, Plan> = {};
  for (const l of LEVELS) plans[l.field] = planOf(matchingIds.get(l.field)!, shardNumber, fullScanThreshold);
  for (const l of LEVELS) {
    const p = plans[l.field]!;
    progress(`${l.label} (${l.field}): ${matchingIds.get(l.field)!.length} matches, per shard ${p.perShard.join('/')} vs threshold ${p.threshold}: ${p.kind}`);
  }

  const filters: { key: string; label: string; level: Level | null }[] = [
    { key: 'none', label: 'none', level: null },
    ...LEVELS.map((l) => ({ key: l.field, label: l.label, level: l })),
  ];
  const queryBodies = new Map<string, string[]>();
  for (const f of filters) {
    queryBodies.set(
      f.key,
      queryRows.map((v) => JSON.stringify(f.level === null ? { query: v, limit: K } : { query: v, limit: K, filter: filterOf(f.level) })),
    );
  }

  const cases = new Map<string, Case>();
  const caseKey = (filter: string, collection: string): string => `${filter}|${collection}`;

  // 1. recall and one-client latency, one request at a time
  for (const f of filters) {
    for (const c of COLLECTIONS) {
      const found: number[][] = [];
      const lat: number[] = [];
      let violations = 0;
      let short = 0;
      const matching = f.level === null ? N : matchingIds.get(f.level.field)!.length;
      for (const body of queryBodies.get(f.key)!) {
        const t1 = performance.now();
        const json = (await callOk(url, 'POST', `/collections/${c.name}/points/query`, body)) as QueryResponse;
        lat.push(performance.now() - t1);
        const ids = idsOf(json.result?.points, `${c.name} query (filter ${f.label})`);
        if (f.level !== null) for (const id of ids) if (!matches(f.level, id)) violations++;
        if (ids.length < Math.min(K, matching)) short++;
        found.push(ids);
      }
      const recall = recallOf(found, truth.get(f.key)!);
      cases.set(caseKey(f.key, c.name), {
        filter: f.label,
        collection: c.name,
        indexed: c.indexed,
        matching,
        recall,
        filterViolations: violations,
        shortAnswers: short,
        sequentialLatencyMs: latencyStats(lat),
        load: null,
        drainMs: null,
        countLatencyMs: null,
        countWrong: 0,
        scrollLatencyMs: null,
        scrollWrong: 0,
      });
      progress(
        `query filter ${f.label} ${c.indexed ? 'indexed' : 'no index'}: recall@10 ${recall.toFixed(4)}, 1-client p50 ${latencyStats(lat).p50.toFixed(2)} ms` +
          (violations > 0 ? `, ${violations} results FAIL the filter` : '') +
          (short > 0 ? `, ${short} short answers` : ''),
      );
    }
  }

  // 2. count (exact) and scroll (limit 100), sequential
  for (const f of filters) {
    const filter = f.level === null ? null : filterOf(f.level);
    const expectedCount = f.level === null ? N : matchingIds.get(f.level.field)!.length;
    const expectedPage = f.level === null ? Array.from({ length: Math.min(SCROLL_LIMIT, N) }, (_, i) => i) : [...matchingIds.get(f.level.field)!.subarray(0, SCROLL_LIMIT)];
    const countBody = JSON.stringify(filter === null ? { exact: true } : { filter, exact: true });
    const scrollBody = JSON.stringify(filter === null ? { limit: SCROLL_LIMIT } : { filter, limit: SCROLL_LIMIT });
    for (const c of COLLECTIONS) {
      const cs = cases.get(caseKey(f.key, c.name))!;
      const countLat: number[] = [];
      for (let r = 0; r < SEQ; r++) {
        const t1 = performance.now();
        const json = (await callOk(url, 'POST', `/collections/${c.name}/points/count`, countBody)) as CountResponse;
        countLat.push(performance.now() - t1);
        if (json.result?.count !== expectedCount) {
          if (cs.countWrong === 0) progress(`count filter ${f.label} on ${c.name}: got ${String(json.result?.count)}, expected ${expectedCount}`);
          cs.countWrong++;
        }
      }
      const scrollLat: number[] = [];
      for (let r = 0; r < SEQ; r++) {
        const t1 = performance.now();
        const json = (await callOk(url, 'POST', `/collections/${c.name}/points/scroll`, scrollBody)) as ScrollResponse;
        scrollLat.push(performance.now() - t1);
        const ids = idsOf(json.result?.points, `${c.name} scroll (filter ${f.label})`);
        if (ids.length !== expectedPage.length || ids.some((id, i) => id !== expectedPage[i])) {
          if (cs.scrollWrong === 0) progress(`scroll filter ${f.label} on ${c.name}: got ids ${ids.slice(0, 12).join(',')}..., expected ${expectedPage.slice(0, 12).join(',')}...`);
          cs.scrollWrong++;
        }
      }
      cs.countLatencyMs = latencyStats(countLat);
      cs.scrollLatencyMs = latencyStats(scrollLat);
      progress(
        `count / scroll filter ${f.label} ${c.indexed ? 'indexed' : 'no index'}: p50 ${cs.countLatencyMs.p50.toFixed(2)} / ${cs.scrollLatencyMs.p50.toFixed(2)} ms`,
      );
    }
  }

  // 3. load: each filter against both collections back to back, so drift in the machine's load
  // (other processes) hits both alike. When autocannon stops, the searches it left queued still
  // run in the shard workers (nothing cancels them); an unfiltered count on every collection
  // fans out to every shard and, queued behind that backlog, returns once it is worked off, so
  // one run's leftovers are not billed to the next.
  const drain = async (): Promise<number> => {
    const t0 = performance.now();
    for (const c of COLLECTIONS) await callOk(url, 'POST', `/collections/${c.name}/points/count`, JSON.stringify({ exact: true }));
    return performance.now() - t0;
  };
  const warm = Math.min(2, SECONDS);
  for (const c of COLLECTIONS) {
    progress(`autocannon warm-up ${c.name} (${warm} s)`);
    await autocannonRun(url, `/collections/${c.name}/points/query`, queryBodies.get('none')!, warm, CONNECTIONS);
    await drain();
  }
  for (const f of filters) {
    for (const c of COLLECTIONS) {
      const l = loadFigures(await autocannonRun(url, `/collections/${c.name}/points/query`, queryBodies.get(f.key)!, SECONDS, CONNECTIONS));
      const drainMs = await drain();
      const cs = cases.get(caseKey(f.key, c.name))!;
      cs.load = l;
      cs.drainMs = drainMs;
      progress(
        `load filter ${f.label} ${c.indexed ? 'indexed' : 'no index'}: ${l.qps.toFixed(0)} QPS p50 ${l.latencyMs.p50} ms p99 ${l.latencyMs.p99} ms, drained in ${drainMs.toFixed(0)} ms` +
          (l.non2xx + l.errors + l.timeouts > 0 ? ` (non-2xx ${l.non2xx}, errors ${l.errors}, timeouts ${l.timeouts})` : ''),
      );
    }
  }
  const memAfter = memOf(server.pid);

  // a sanity probe after load: the server still answers
  const probe = await call(url, 'POST', `/collections/${COLLECTIONS[1].name}/points/count`, JSON.stringify({ exact: true }));
  if (probe.status !== 200) throw new Error(`server unhealthy after load: count -> ${probe.status}: ${probe.text.slice(0, 300)}`);

  const problems = [...server.problems];
  const stop = await stopServer(server);
  tracked.current = null;

  const report: Report = {
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    params: {
      N,
      dim: DIM,
      queries: QUERIES,
      seconds: SECONDS,
      k: K,
      connections: CONNECTIONS,
      sequentialRequests: SEQ,
      scrollLimit: SCROLL_LIMIT,
      fieldType: FIELD_TYPE,
      distance: 'Cosine',
      shards: shardNumber,
      fullScanThreshold,
      fullScanThresholdSetByBench: FULL_SCAN_THRESHOLD !== null,
      hnsw: { m: first?.config?.hnsw_config?.m ?? null, efConstruct: first?.config?.hnsw_config?.ef_construct ?? null },
    },
    env: { node: process.version, cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', commit: gitCommit() },
    bruteForceS,
    ingest,
    indexBuildMs,
    memory: { rssEmpty: memEmpty.rss, rssAfterIngest: memLoaded.rss, rssAfterLoad: memAfter.rss },
    plans: Object.fromEntries(LEVELS.map((l) => [l.label, { field: l.field, matching: matchingIds.get(l.field)!.length, ...plans[l.field]! }])),
    cases: [...cases.values()],
    serverStop: { ms: stop.ms, code: stop.code, signal: stop.signal, killed: stop.killed },
    serverProblems: problems.slice(0, 200),
  };

  printTables(report);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `filters-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`\nwritten ${file}\n`);
}

// ---------------------------------------------------------------------------------------------

runBench(main, TIMEOUT_S);
