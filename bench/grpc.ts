// `npm run build && node dist/bench/grpc.js`: search QPS through gRPC beside REST, on the same
// data in the same server. The same random queries (limit 10) go to POST /points/search and to
// qdrant.Points/Search:
// - REST, autocannon: the load generator bench/run.ts uses (lightest client);
// - REST, fetch: a closed loop of JS clients in this process (undici keep-alive);
// - gRPC, the official @qdrant/js-client-grpc in this process, with its default gzip and without.
// Each runs `BENCH_CONCURRENCY` requests in flight for `BENCH_SECONDS`, after a 2 s warm-up.
// The clients share the machine with the server: on few cores the in-process clients' own CPU
// time lowers what they measure, which is why REST is measured both ways.
//
// Sized by env: BENCH_N (20000 points), BENCH_DIM (128), BENCH_QUERIES (200), BENCH_SECONDS (10),
// BENCH_CONCURRENCY (32), BENCH_SHARDS (os.availableParallelism()), BENCH_TIMEOUT_S (900).
// Progress to stderr, the table to stdout, the figures as JSON to bench/results/grpc-<time>.json.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { QdrantClient, type SearchPoints } from '@qdrant/js-client-grpc';
import {
  autocannonRun,
  callOk,
  cleanups,
  envInt,
  gitCommit,
  latencyStats,
  loadFigures,
  progress,
  randomMicros,
  RESULTS_DIR,
  row,
  rowJson,
  runBench,
  startServer,
  stopServer,
  tracked,
} from './common.js';
import { grpcPortOf } from './lib/server.js';

const N = envInt('BENCH_N', 20_000);
const DIM = envInt('BENCH_DIM', 128);
const QUERIES = envInt('BENCH_QUERIES', 200);
const SECONDS = envInt('BENCH_SECONDS', 10);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 32);
const SHARDS = envInt('BENCH_SHARDS', availableParallelism());
const TIMEOUT_S = envInt('BENCH_TIMEOUT_S', 900);
const BATCH = 1000;
const K = 10;
const COLLECTION = 'grpc_bench';
const WARMUP_S = 2;

interface Figures {
  qps: number;
  ok: number;
  errors: number;
  latencyMs: { p50: number; p99: number; mean: number };
  /** CPU milliseconds per request: the server process (main thread and workers) and this client process. */
  cpuMsPerRequest?: { server: number; client: number };
}

/** CPU time of a process so far, in milliseconds (utime + stime from /proc). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** `CONCURRENCY` loops, each sending the next query as soon as its last one is answered. */
async function closedLoop(seconds: number, send: (i: number) => Promise<void>): Promise<Figures> {
  const lat: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      for (let i = w * 7; performance.now() < end; i++) {
        const t1 = performance.now();
        try {
          await send(i % QUERIES);
          lat.push(performance.now() - t1);
        } catch {
          errors++;
        }
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  const stats = latencyStats(lat);
  return { qps: lat.length / s, ok: lat.length, errors, latencyMs: stats };
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'quiver-bench-grpc-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const data = randomMicros(N, DIM, 1);
  const queries = randomMicros(QUERIES, DIM, 2);

  progress(`starting the server (${SHARDS} shards)`);
  const server = await startServer(dataDir, SHARDS);
  tracked.current = server;
  await server.ready;
  const url = server.url;
  const grpcPort = await grpcPortOf(server);

  progress(`ingesting ${N} x ${DIM} through REST`);
  await callOk(url, 'PUT', `/collections/${COLLECTION}`, JSON.stringify({ vectors: { size: DIM, distance: 'Cosine' } }));
  for (let i = 0; i < N; i += BATCH) {
    const points: string[] = [];
    for (let j = i; j < Math.min(N, i + BATCH); j++) points.push(`{"id":${j},"vector":${rowJson(data, j, DIM)},"payload":{"i":${j}}}`);
    await callOk(url, 'PUT', `/collections/${COLLECTION}/points?wait=true`, `{"points":[${points.join(',')}]}`);
  }

  const restBodies = Array.from({ length: QUERIES }, (_, q) => JSON.stringify({ vector: row(queries, q, DIM), limit: K }));
  const grpcRequests: SearchPoints[] = Array.from({ length: QUERIES }, (_, q) => ({ collectionName: COLLECTION, vector: row(queries, q, DIM), limit: BigInt(K) }) as SearchPoints);
  const searchPath = `/collections/${COLLECTION}/points/search`;

  // Both protocols must answer the same before their speed means anything.
  const grpcGzip = new QdrantClient({ url: `http://127.0.0.1:${grpcPort}`, checkCompatibility: false });
  const grpcPlain = new QdrantClient({ url: `http://127.0.0.1:${grpcPort}`, checkCompatibility: false, compression: false });
  for (let q = 0; q < 20; q++) {
    const rest = ((await callOk(url, 'POST', searchPath, restBodies[q])) as { result: { id: number }[] }).result.map((p) => p.id);
    const grpc = (await grpcPlain.api('points').search(grpcRequests[q]!)).result.map((p) => Number(p.id?.pointIdOptions.value));
    if (JSON.stringify(rest) !== JSON.stringify(grpc)) throw new Error(`query ${q}: REST found ${rest.join(',')}, gRPC ${grpc.join(',')}`);
  }

  const runs: Record<string, Figures> = {};
  const measure = async (label: string, run: (seconds: number) => Promise<Figures>): Promise<void> => {
    progress(`${label}: warm-up ${WARMUP_S} s, then ${SECONDS} s with ${CONCURRENCY} in flight`);
    await run(WARMUP_S);
    const server0 = cpuMsOf(server.pid);
    const client0 = process.cpuUsage();
    const f = await run(SECONDS);
    const client = process.cpuUsage(client0);
    f.cpuMsPerRequest = { server: (cpuMsOf(server.pid) - server0) / f.ok, client: (client.user + client.system) / 1000 / f.ok };
    runs[label] = f;
  };

  await measure('REST (autocannon)', async (seconds) => {
    const f = loadFigures(await autocannonRun(url, searchPath, restBodies, seconds, CONCURRENCY));
    return { qps: f.qps, ok: f.ok, errors: f.errors + f.non2xx, latencyMs: { p50: f.latencyMs.p50, p99: f.latencyMs.p99, mean: f.latencyMs.mean } };
  });
  await measure('REST (fetch, in-process)', (seconds) =>
    closedLoop(seconds, async (i) => {
      const res = await fetch(url + searchPath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: restBodies[i]! });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      await res.arrayBuffer();
    }),
  );
  await measure('gRPC (js-client-grpc, gzip)', (seconds) =>
    closedLoop(seconds, async (i) => {
      await grpcGzip.api('points').search(grpcRequests[i]!);
    }),
  );
  await measure('gRPC (js-client-grpc, no compression)', (seconds) =>
    closedLoop(seconds, async (i) => {
      await grpcPlain.api('points').search(grpcRequests[i]!);
    }),
  );

  await stopServer(server);

  const lines = [
    `gRPC vs REST search QPS: ${N} x ${DIM} Cosine, limit ${K}, ${CONCURRENCY} in flight, ${SECONDS} s each, ${SHARDS} shards, ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`,
    '',
    `${'client'.padEnd(40)} ${'QPS'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)} ${'server CPU ms/req'.padStart(18)} ${'client CPU ms/req'.padStart(18)}`,
    ...Object.entries(runs).map(
      ([label, f]) =>
        `${label.padEnd(40)} ${f.qps.toFixed(0).padStart(8)} ${f.latencyMs.p50.toFixed(2).padStart(8)} ${f.latencyMs.p99.toFixed(2).padStart(8)} ${String(f.errors).padStart(7)}` +
        ` ${(f.cpuMsPerRequest?.server ?? 0).toFixed(2).padStart(18)} ${(f.cpuMsPerRequest?.client ?? 0).toFixed(2).padStart(18)}`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const file = join(RESULTS_DIR, `grpc-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ commit: gitCommit(), n: N, dim: DIM, k: K, concurrency: CONCURRENCY, seconds: SECONDS, shards: SHARDS, cores: cpus().length, runs }, null, 2) + '\n');
  progress(`figures written to ${file}`);
}

runBench(main, TIMEOUT_S);
