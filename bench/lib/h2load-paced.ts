// Fixed-rate latency with h2load (C) instead of a node:http generator on the same cores, so
// that the p50/p99 at half the peak rate are the server's and not the generator's event loop and
// GC. h2load --h1 --rps=R sends R requests a second on each of its clients (one HTTP/1.1
// connection each, one request in flight since -d sets pipelining to 1) and --log-file writes one
// line per request: start (us since epoch), HTTP status, microseconds until the response ended.
// gRPC runs the same way over HTTP/2 with one stream per connection (runPacedGrpc).
//
// The plan (pacedPlan): `clients` connections share the rate, spread over `procs` processes, each
// posting another query body (h2load sends one body per process; a single query would run a hot
// path through the same graph nodes). A client's sends are spaced by its interval 1000/rps ms;
// each process starts its clients one by one (-r 1 per rate period) and the processes start a
// fraction of that apart, so the clients' schedules interleave instead of all firing together
// (in-phase clients turn a steady rate into bursts of `clients` requests, which is a queueing
// test, not a latency one).
//
// Coordinated omission: h2load counts a request's time from when it was actually sent. A client
// whose response is still out when its next send is due sends it late (the pending send waits for
// the stream), and the wait is not counted. So every request slower than its client's interval is
// counted (`overInterval`): when it is 0, no send was delayed and the percentiles are exact.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trackChild } from '../common.js';
import { summarize, type LoadResult } from './child-io.js';
import { grpcCodes, H2LOAD, parseTimes, probe } from './h2load.js';
import { encodeSearches, grpcFrame, SEARCH_PATH } from './grpc-search.js';
import type { Measured, Target } from './load.js';
import { cpuPerRequest, sampleCpu, type CpuSample } from './proc.js';

export interface PacedPlan {
  /** clients per process */
  clients: number[];
  rpsPerClient: number;
  /** ms between two sends of one client */
  intervalMs: number;
  /** requests per process: its clients x the client's share of `seconds` */
  requests: number[];
  /** ms between the starts of two clients of one process (h2load --rate-period, whole ms) */
  clientStaggerMs: number;
  /** ms between the starts of two processes */
  procOffsetMs: number;
}

/** Splits `rate` requests/s over `clients` connections in at most `procs` processes for `seconds`. */
export function pacedPlan(rate: number, clients: number, procs: number, seconds: number): PacedPlan {
  if (!(rate > 0) || clients < 1 || procs < 1 || !(seconds > 0)) throw new Error(`pacedPlan: rate, clients, procs and seconds must be positive (${rate}, ${clients}, ${procs}, ${seconds})`);
  const p = Math.min(procs, clients);
  const per = Array.from({ length: p }, (_, i) => Math.floor(clients / p) + (i < clients % p ? 1 : 0));
  const rpsPerClient = rate / clients;
  const intervalMs = 1000 / rpsPerClient;
  const perClient = Math.max(1, Math.round(rpsPerClient * seconds));
  return {
    clients: per,
    rpsPerClient,
    intervalMs,
    requests: per.map((c) => c * perClient),
    clientStaggerMs: Math.max(1, Math.floor(intervalMs / Math.max(...per))),
    procOffsetMs: intervalMs / clients,
  };
}

export interface LogFigures {
  /** ms per request with status 200 */
  latencyMs: number[];
  /** count by status ("-1": failed stream) */
  statusCodes: Record<string, number>;
  /** first start and last end, us since epoch */
  firstStartUs: number;
  lastEndUs: number;
}

/** h2load --log-file lines (start us, status, duration us, tab-separated) of one or more files. */
export function parseLogs(texts: string[]): LogFigures {
  const latencyMs: number[] = [];
  const statusCodes: Record<string, number> = {};
  let firstStartUs = Number.POSITIVE_INFINITY;
  let lastEndUs = Number.NEGATIVE_INFINITY;
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const f = line.split('\t');
      const start = Number(f[0]);
      const status = f[1]?.trim() ?? '';
      const us = Number(f[2]);
      if (f.length < 3 || !Number.isFinite(start) || status === '' || !Number.isFinite(us)) throw new Error(`h2load log: bad line '${line.slice(0, 200)}'`);
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      firstStartUs = Math.min(firstStartUs, start);
      lastEndUs = Math.max(lastEndUs, start + us);
      if (status === '200') latencyMs.push(us / 1000);
    }
  }
  return { latencyMs, statusCodes, firstStartUs, lastEndUs };
}

/** Upper bounds (ms) of the latency histogram's buckets; the last bucket takes the rest. */
export const HISTOGRAM_LE_MS = [0.5, 1, 2, 3, 5, 10, 20, 50, 100];

/** Counts per bucket: counts[i] for latency <= le[i] (and above the bucket before), the last for > the last bound. */
export function histogram(ms: readonly number[], le: readonly number[] = HISTOGRAM_LE_MS): { leMs: number[]; counts: number[] } {
  const counts = new Array<number>(le.length + 1).fill(0);
  for (const v of ms) {
    let i = 0;
    while (i < le.length && v > le[i]!) i++;
    counts[i]!++;
  }
  return { leMs: [...le], counts };
}

/** The p-th percentile (nearest rank) of exact values. */
export function percentile(ms: readonly number[], p: number): number {
  if (ms.length === 0) return Number.NaN;
  const s = Float64Array.from(ms).sort();
  // rounded first: 0.999 * 1000 is 999.0000000000001 in floating point, whose ceiling is one rank too far
  const rank = Math.ceil(Math.round((p / 100) * s.length * 1e6) / 1e6);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))]!;
}

export interface PacedFigures {
  plan: PacedPlan;
  p999: number;
  histogram: { leMs: number[]; counts: number[] };
  /** requests slower than their client's interval: each may have delayed that client's next send */
  overInterval: number;
}

/** The load result of a paced run's logs (figures taken over the whole measured run). */
export function pacedResult(logs: LogFigures, plan: PacedPlan, rate: number, clientCpuS: number): LoadResult & { paced: PacedFigures } {
  const ok = logs.latencyMs.length;
  const logged = Object.values(logs.statusCodes).reduce((a, b) => a + b, 0);
  // requests the plan sent but no log line tells of (a process that died, a log that was not written) failed too
  const unlogged = Math.max(0, plan.requests.reduce((a, b) => a + b, 0) - logged);
  if (unlogged > 0) logs.statusCodes['not logged'] = unlogged;
  const failed = logged + unlogged - ok;
  const durationS = ok === 0 ? Number.NaN : (logs.lastEndUs - logs.firstStartUs) / 1e6;
  const statusCodes: Record<string, number> = {};
  for (const [k, n] of Object.entries(logs.statusCodes)) statusCodes[k === '-1' ? 'failed stream' : k] = n;
  return {
    generator: `h2load --h1 --rps x${plan.clients.length} (${plan.clients.reduce((a, b) => a + b, 0)} connections at ${plan.rpsPerClient.toFixed(1)}/s each)`,
    ok,
    failed,
    durationS,
    qps: ok / durationS,
    latencyMs: summarize(logs.latencyMs),
    targetRate: rate,
    clientCpuMsPerRequest: (clientCpuS * 1000) / Math.max(1, ok),
    firstError: failed > 0 ? `statuses ${JSON.stringify(statusCodes)}` : null,
    statusCodes,
    paced: {
      plan,
      p999: percentile(logs.latencyMs, 99.9),
      histogram: histogram(logs.latencyMs),
      overInterval: logs.latencyMs.filter((v) => v > plan.intervalMs).length,
    },
  };
}

/** What a paced run sends: to `url`, with `headers`, one body file per process. */
interface PacedTarget {
  url: string;
  headers: string[];
  /** HTTP/1.1 (REST); otherwise HTTP/2 without TLS (gRPC), one stream per connection */
  h1: boolean;
  bodyFile: (proc: number, procs: number) => string;
}

export interface PacedRestConfig {
  url: string;
  path: string;
  bodies: string[];
  /** requests per second, all clients together */
  rate: number;
  clients: number;
  procs: number;
  seconds: number;
  warmupSeconds: number;
}

let runs = 0;

/** One h2load process; resolves with its CPU seconds (the shell's `times`). */
function runProc(path: string, args: string[], delayMs: number): Promise<number> {
  return new Promise<number>((res, rej) => {
    setTimeout(() => {
      const p = spawn('sh', ['-c', '"$0" "$@"; rc=$?; times; exit $rc', path, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      trackChild(p);
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (out += d.toString()));
      p.once('exit', (code) => (code === 0 ? res(parseTimes(out)) : rej(new Error(`h2load exited with ${code}: ${out.slice(-1000)}`))));
    }, delayMs);
  });
}

/** Warm-up, then the measured run with per-request logs; the server's CPU around the latter. */
async function runPaced(t: PacedTarget, rate: number, clients: number, procs: number, seconds: number, warmupSeconds: number, scratch: string, target: Target): Promise<{ load: LoadResult & { paced: PacedFigures }; before: CpuSample; after: CpuSample }> {
  const path = H2LOAD.path;
  if (path === null) throw new Error('h2load is not installed');
  const run = ++runs;
  const plan = pacedPlan(rate, clients, procs, seconds);
  const files = plan.clients.map((_, i) => t.bodyFile(i, plan.clients.length));
  const all = async (p: PacedPlan, logs: string[] | null): Promise<number> => {
    const cpu = await Promise.all(
      p.clients.map((c, i) => {
        const log = logs?.[i];
        if (log !== undefined) rmSync(log, { force: true }); // h2load appends to its log file
        const args = [
          ...(t.h1 ? ['--h1'] : ['-m1']),
          `-c${c}`,
          `--rps=${p.rpsPerClient}`,
          `-n${p.requests[i]!}`,
          '-r1',
          `--rate-period=${p.clientStaggerMs}ms`,
          ...t.headers.flatMap((h) => ['-H', h]),
          '-d',
          files[i]!,
          ...(log === undefined ? [] : [`--log-file=${log}`]),
          t.url,
        ];
        return runProc(path, args, i * p.procOffsetMs);
      }),
    );
    return cpu.reduce((a, b) => a + b, 0);
  };
  if (warmupSeconds > 0) await all(pacedPlan(rate, clients, procs, warmupSeconds), null);
  const logs = plan.clients.map((_, i) => join(scratch, `paced-${run}-${i}.log`));
  const before = sampleCpu(target.pid, target.tidFile);
  const cpuS = await all(plan, logs);
  const after = sampleCpu(target.pid, target.tidFile);
  // a missing log file counts its process's requests as failed (pacedResult), not as none sent
  const load = pacedResult(parseLogs(logs.map((f) => (existsSync(f) ? readFileSync(f, 'utf8') : ''))), plan, rate, cpuS);
  return { load, before, after };
}

/** A paced REST run (see the file comment). */
export async function runPacedRest(o: PacedRestConfig, scratch: string, target: Target): Promise<Measured> {
  const run = ++runs;
  const t: PacedTarget = {
    url: `${o.url}${o.path}`,
    headers: ['content-type: application/json'],
    h1: true,
    // bodies spread over the whole query set, one per process
    bodyFile: (i, n) => {
      const file = join(scratch, `paced-${run}-body-${i}.json`);
      writeFileSync(file, o.bodies[Math.floor((i * o.bodies.length) / n)]!);
      return file;
    },
  };
  const { load, before, after } = await runPaced(t, o.rate, o.clients, o.procs, o.seconds, o.warmupSeconds, scratch, target);
  return { load, serverCpu: cpuPerRequest(before, after, load.ok) };
}

export interface PacedGrpcConfig {
  /** host:port of the gRPC server */
  target: string;
  /** the server's REST base URL, for /metrics */
  restUrl: string;
  collection: string;
  vectors: number[][];
  limit: number;
  hnswEf: number;
  rate: number;
  clients: number;
  procs: number;
  seconds: number;
  warmupSeconds: number;
}

/**
 * A paced gRPC Search run over HTTP/2, one stream per connection. A gRPC error is an HTTP 200
 * with a grpc-status trailer, which h2load's log cannot tell: as in the peak runs (h2load.ts), each
 * body is sent once first and must succeed, and the server's quiver_grpc_responses_total must have
 * grown by the logged 200s with code OK only; the calls it cannot account OK count as failed.
 */
export async function runPacedGrpc(o: PacedGrpcConfig, scratch: string, target: Target): Promise<Measured> {
  const run = ++runs;
  // one query per process, each checked once before the run
  const procs = Math.min(o.procs, o.clients);
  const files: string[] = [];
  for (let i = 0; i < procs; i++) {
    const v = o.vectors[Math.floor((i * o.vectors.length) / procs)]!;
    const frame = grpcFrame(encodeSearches(o.collection, [v], o.limit, o.hnswEf)[0]!);
    await probe(`http://${o.target}`, frame, o.limit);
    const file = join(scratch, `paced-${run}-grpc-${i}.bin`);
    writeFileSync(file, frame);
    files.push(file);
  }
  const t: PacedTarget = {
    url: `http://${o.target}${SEARCH_PATH}`,
    headers: ['content-type: application/grpc', 'te: trailers'],
    h1: false,
    bodyFile: (i) => files[i]!,
  };
  const codes0 = await grpcCodes(o.restUrl);
  const { load, before, after } = await runPaced(t, o.rate, o.clients, o.procs, o.seconds, o.warmupSeconds, scratch, target);
  const codes1 = await grpcCodes(o.restUrl);
  const delta: Record<string, number> = {};
  for (const [code, n] of codes1) if (n - (codes0.get(code) ?? 0) > 0) delta[`grpc ${code}`] = n - (codes0.get(code) ?? 0);
  // the deltas also hold the warm-up's calls: only the non-OK ones can be charged to this run
  const notOk = Object.entries(delta).reduce((s, [k, n]) => (k === 'grpc OK' ? s : s + n), 0);
  const ok = Math.max(0, Math.min(load.ok - notOk, delta['grpc OK'] ?? 0));
  const failed = load.failed + (load.ok - ok);
  const result: LoadResult & { paced: PacedFigures } = {
    ...load,
    generator: load.generator.replace('--h1 ', ''),
    ok,
    failed,
    qps: ok / load.durationS,
    statusCodes: { ...load.statusCodes, ...delta },
    firstError: failed > 0 ? `statuses ${JSON.stringify(load.statusCodes)}, server gRPC codes ${JSON.stringify(delta)}` : null,
  };
  return { load: result, serverCpu: cpuPerRequest(before, after, ok) };
}
