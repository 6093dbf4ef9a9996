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
// is always stopped on the way out, error or not (bench/common.ts).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { shardOf } from '../src/shared/placement.js';
import {
  autocannonRun,
  bruteForce,
  call,
  callOk,
  cleanups,
  envInt,
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
  type LoadFigures,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// configuration

const N = envInt('BENCH_N', 100_000);
const DIM = envInt('BENCH_DIM', 128);
const QUERIES = envInt('BENCH_QUERIES', 100);
const SECONDS = envInt('BENCH_SECONDS', 5);
const SHARDS = envInt('BENCH_SHARDS', availableParallelism());
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 32);
const SEQ = envInt('BENCH_SEQ_REQUESTS', 200);
const INGEST_CONCURRENCY = envInt('BENCH_INGEST_CONCURRENCY', 4);
const BATCH = envInt('BENCH_BATCH', 1000);
const TIMEOUT_S = envInt('BENCH_TIMEOUT_S', 3600);
const FULL_SCAN_THRESHOLD = process.env.BENCH_FULL_SCAN_THRESHOLD ? envInt('BENCH_FULL_SCAN_THRESHOLD', 0, 0) : null;
const FIELD_TYPE = ((): 'keyword' | 'integer' => {
  const raw = process.env.BENCH_FIELD_TYPE ?? '';
  if (raw === '' || raw === 'keyword') return 'keyword';
  if (raw === 'integer') return 'integer';
  throw new Error(`BENCH_FIELD_TYPE must be 'keyword' or 'integer', got '${raw}'`);
})();
const K = 10;
const SCROLL_LIMIT = 100;
const DATA_SEED = 1;
const QUERY_SEED = 2;

/** The selectivity fields: point i matches `field` when i % every === 0. */
const LEVELS = [
  { field: 'half', label: '50%', every: 2 },
  { field: 'sel10', label: '10%', every: 10 },
  { field: 'sel1', label: '1%', every: 100 },
  { field: 'sel01', label: '0.1%', every: 1000 },
] as const;
type Level = (typeof LEVELS)[number];

/** The field's value on matching and other points. */
const YES: string | number = FIELD_TYPE === 'keyword' ? 'yes' : 1;
const NO: string | number = FIELD_TYPE === 'keyword' ? 'no' : 0;

const COLLECTIONS = [
  { name: 'filters_noindex', indexed: false },
  { name: 'filters_indexed', indexed: true },
] as const;
type CollectionName = (typeof COLLECTIONS)[number]['name'];

function matches(level: Level, i: number): boolean {
  return i % level.every === 0;
}

function filterOf(level: Level): { must: { key: string; match: { value: string | number } }[] } {
  return { must: [{ key: level.field, match: { value: YES } }] };
}

function payloadJson(i: number): string {
  return '{' + LEVELS.map((l) => `${JSON.stringify(l.field)}:${JSON.stringify(matches(l, i) ? YES : NO)}`).join(',') + '}';
}

// ---------------------------------------------------------------------------------------------
// figures

/** One filter ('none' = unfiltered) against one collection. */
interface Case {
  filter: string;
  collection: CollectionName;
  indexed: boolean;
  matching: number;
  recall: number;
  /** Results that fail the filter (must be 0). */
  filterViolations: number;
  /** Queries answered with fewer than min(k, matching) points. */
  shortAnswers: number;
  sequentialLatencyMs: { p50: number; p99: number; mean: number };
  load: LoadFigures | null;
  /** After the load run: ms until a request queued behind the server's backlog came back. */
  drainMs: number | null;
  countLatencyMs: { p50: number; p99: number; mean: number } | null;
  countWrong: number;
  scrollLatencyMs: { p50: number; p99: number; mean: number } | null;
  scrollWrong: number;
}

interface Plan {
  perShard: number[];
  threshold: number;
  /** What each shard's search does: exact over the candidates, or HNSW with the filter. */
  kind: 'exact' | 'hnsw+filter' | 'mixed';
}

function planOf(ids: ArrayLike<number>, shardNumber: number, fullScanThresholdKb: number): Plan {
  const perShard = new Array<number>(shardNumber).fill(0);
  for (let j = 0; j < ids.length; j++) perShard[shardOf(ids[j]!, shardNumber)]!++;
  // full_scan_threshold is in KB of vectors, as in Qdrant.
  const threshold = Math.max(Math.floor((fullScanThresholdKb * 1024) / (DIM * 4)), K);
  const exact = perShard.filter((c) => c <= threshold).length;
  return { perShard, threshold, kind: exact === shardNumber ? 'exact' : exact === 0 ? 'hnsw+filter' : 'mixed' };
}

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
// output

interface Report {
  startedAt: string;
  finishedAt: string;
  params: {
    N: number;
    dim: number;
    queries: number;
    seconds: number;
    k: number;
    connections: number;
    sequentialRequests: number;
    scrollLimit: number;
    fieldType: string;
    distance: string;
    shards: number;
    fullScanThreshold: number;
    fullScanThresholdSetByBench: boolean;
    hnsw: { m: number | null; efConstruct: number | null };
  };
  env: { node: string; cores: number; cpu: string; commit: string | null };
  bruteForceS: number;
  ingest: Record<string, { seconds: number; rate: number }>;
  indexBuildMs: Record<string, number>;
  memory: { rssEmpty: number; rssAfterIngest: number; rssAfterLoad: number };
  plans: Record<string, { field: string; matching: number } & Plan>;
  cases: Case[];
  serverStop: { ms: number; code: number | null; signal: NodeJS.Signals | null; killed: boolean };
  serverProblems: string[];
}

function table(head: string[], rows: string[][], leftCols = 1): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, i) => (i < leftCols ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)];
}

function printTables(r: Report): void {
  const f = (v: number, digits = 0): string =>
    Number.isFinite(v) ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
  const ms = (v: number): string => f(v, v < 10 ? 2 : 1);
  const p = r.params;
  const out: string[] = [];
  out.push(
    `Quiver filter bench: N=${p.N} dim=${p.dim} Cosine, k=${p.k}, ${p.queries} queries, ${p.fieldType} fields, ${p.seconds} s per load run, ${p.connections} connections`,
  );
  out.push(
    `node ${r.env.node}, ${r.env.cores} cores (${r.env.cpu}), commit ${String(r.env.commit)}; ${p.shards} shards, m=${String(p.hnsw.m)} ef_construct=${String(p.hnsw.efConstruct)}, ` +
      `full_scan_threshold=${p.fullScanThreshold}${p.fullScanThresholdSetByBench ? ' (set by BENCH_FULL_SCAN_THRESHOLD)' : ' (server default)'}`,
  );
  out.push('autocannon runs in the bench process on the same machine; other work on the machine makes absolute figures noisy');
  out.push(
    `ingest (points/s): ${Object.entries(r.ingest)
      .map(([n, v]) => `${n} ${f(v.rate)}`)
      .join(', ')}; index build (ms): ${Object.entries(r.indexBuildMs)
      .map(([k, v]) => `${k} ${f(v)}`)
      .join(', ')}`,
  );
  out.push('');

  out.push('plan per filter (candidates per shard vs max(full_scan_threshold, k): at or below -> exact scoring of the candidates, above -> HNSW with the filter)');
  out.push(
    ...table(
      ['filter', 'field', 'matching', 'per shard', 'plan'],
      Object.entries(r.plans).map(([label, pl]) => [label, pl.field, f(pl.matching), pl.perShard.join(' / '), `${pl.kind} (threshold ${pl.threshold})`]),
      2,
    ),
  );
  out.push('');

  const idx = (c: Case): string => (c.indexed ? 'yes' : 'no');
  out.push(`filtered search: POST /points/query limit ${p.k}; recall@10 vs exact filtered brute force; 1-client = sequential requests; load = autocannon ${p.connections} connections`);
  out.push(
    ...table(
      ['filter', 'index', 'recall@10', 'bad/short', '1-client p50 (ms)', 'QPS', 'p50 (ms)', 'p99 (ms)', 'non2xx/err/timeout', 'drain (ms)'],
      r.cases.map((c) => [
        c.filter,
        idx(c),
        f(c.recall, 4),
        `${c.filterViolations}/${c.shortAnswers}`,
        ms(c.sequentialLatencyMs.p50),
        c.load === null ? 'n/a' : f(c.load.qps),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p50),
        c.load === null ? 'n/a' : f(c.load.latencyMs.p99),
        c.load === null ? 'n/a' : `${c.load.non2xx}/${c.load.errors}/${c.load.timeouts}`,
        c.drainMs === null ? 'n/a' : f(c.drainMs),
      ]),
      2,
    ),
  );
  out.push('bad/short: results failing the filter / queries answered with fewer than min(k, matching) points');
  out.push('drain: after the load run, time until the server had worked off the requests autocannon left queued (they are not cancelled)');
  out.push('');

  out.push(`count (exact) and scroll (limit ${p.scrollLimit}): latency over ${p.sequentialRequests} sequential requests each`);
  out.push(
    ...table(
      ['filter', 'index', 'matching', 'count p50 (ms)', 'count p99 (ms)', 'scroll p50 (ms)', 'scroll p99 (ms)', 'wrong count/scroll'],
      r.cases.map((c) => [
        c.filter,
        idx(c),
        f(c.matching),
        c.countLatencyMs === null ? 'n/a' : ms(c.countLatencyMs.p50),
        c.countLatencyMs === null ? 'n/a' : ms(c.countLatencyMs.p99),
        c.scrollLatencyMs === null ? 'n/a' : ms(c.scrollLatencyMs.p50),
        c.scrollLatencyMs === null ? 'n/a' : ms(c.scrollLatencyMs.p99),
        `${c.countWrong}/${c.scrollWrong}`,
      ]),
      2,
    ),
  );
  out.push('');
  out.push(
    `server RSS: empty ${(r.memory.rssEmpty / 1048576).toFixed(0)} MiB, after ingest (both collections) ${(r.memory.rssAfterIngest / 1048576).toFixed(0)} MiB, after load ${(r.memory.rssAfterLoad / 1048576).toFixed(0)} MiB; ` +
      `server warnings/errors logged: ${r.serverProblems.length}; stop ${r.serverStop.killed ? 'needed SIGKILL' : `on SIGTERM in ${f(r.serverStop.ms)} ms`}`,
  );
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------

runBench(main, TIMEOUT_S);
