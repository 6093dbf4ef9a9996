// gRPC peak load with h2load (nghttp2-client, C): the gRPC counterpart of wrk, at a few hundredths
// of a millisecond of CPU per call where the grpc-js child costs about as much as the server.
// h2load sends one body for all its requests, so several processes run at once, each with another
// query (a single query would be a hot path through the same graph nodes), the in-flight total
// split among them. h2load counts HTTP 200 as success, and gRPC errors are 200s with a
// grpc-status trailer, so a run is bracketed by checks: each body is sent once over node:http2
// first and must answer grpc-status 0 with `limit` points, and the server's own
// quiver_grpc_responses_total{code} must have grown by at least the successes h2load reports,
// with no other code; calls that cannot be accounted OK are counted failed.

import { execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:http2';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trackChild } from '../common.js';
import type { LoadResult } from './child-io.js';
import type { GrpcLoadConfig } from './grpc-load-child.js';
import { checkSearchAnswer, encodeSearches, grpcFrame, SEARCH_PATH, unframe } from './grpc-search.js';
import type { Measured, Target } from './load.js';
import { cpuPerRequest, sampleCpu } from './proc.js';

export const H2LOAD: { path: string | null } = (() => {
  if (process.env.BENCH_H2LOAD === '0') return { path: null };
  try {
    const path = execFileSync('sh', ['-c', 'command -v h2load'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { path: path === '' ? null : path };
  } catch {
    return { path: null };
  }
})();

export interface H2loadFigures {
  durationS: number;
  total: number;
  started: number;
  succeeded: number;
  failed: number;
  errored: number;
  timeout: number;
  non2xx: number;
  /** per-request time, ms */
  latencyMs: { min: number; max: number; mean: number };
}

/** h2load durations: 862us, 6.47ms, 2.02s, 1m (also 1.5m). */
function duration(v: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

/** h2load's summary text -> figures; throws when the summary lines are missing. */
export function parseH2load(text: string): H2loadFigures {
  const fin = /finished in (\S+?),/.exec(text);
  const req = /requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(text);
  if (!fin || !req) throw new Error(`h2load printed no summary: ${text.slice(-500)}`);
  const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(text);
  const t = /time for request:\s+(\S+)\s+(\S+)\s+(\S+)/.exec(text);
  return {
    durationS: duration(fin[1]!) / 1000,
    total: Number(req[1]),
    started: Number(req[2]),
    succeeded: Number(req[4]),
    failed: Number(req[5]),
    errored: Number(req[6]),
    timeout: Number(req[7]),
    non2xx: codes ? Number(codes[2]) + Number(codes[3]) + Number(codes[4]) : 0,
    latencyMs: t ? { min: duration(t[1]!), max: duration(t[2]!), mean: duration(t[3]!) } : { min: Number.NaN, max: Number.NaN, mean: Number.NaN },
  };
}

/** The shell's `times` output (last line: children's user and system time) -> CPU seconds. */
export function parseTimes(text: string): number {
  const lines = text.trim().split('\n');
  const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s\s*$/.exec(lines[lines.length - 1] ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]) : Number.NaN;
}

/**
 * Connections per process so that connections x streams = `inFlight` (rounded up to whole
 * connections), spread over at most `procs` processes, each with at least one connection.
 */
export function splitClients(inFlight: number, procs: number, streams: number): number[] {
  const conns = Math.max(1, Math.ceil(inFlight / streams));
  const p = Math.max(1, Math.min(procs, conns));
  return Array.from({ length: p }, (_, i) => Math.floor(conns / p) + (i < conns % p ? 1 : 0));
}

/** Sums of a Prometheus counter's samples by one label, among the samples matching `where`. */
export function counterBy(metrics: string, name: string, by: string, where: Record<string, string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of metrics.split('\n')) {
    const m = new RegExp(`^${name}\\{([^}]*)\\}\\s+(\\S+)`).exec(line);
    if (!m) continue;
    const labels = new Map<string, string>();
    for (const l of m[1]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels.set(l[1]!, l[2]!);
    if (!Object.entries(where).every(([k, v]) => labels.get(k) === v)) continue;
    const key = labels.get(by) ?? '';
    out.set(key, (out.get(key) ?? 0) + Number(m[2]));
  }
  return out;
}

/** The server's gRPC status counts for Search so far (GET /metrics). */
export async function grpcCodes(restUrl: string): Promise<Map<string, number>> {
  const res = await fetch(`${restUrl}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  return counterBy(await res.text(), 'quiver_grpc_responses_total', 'code', { method: SEARCH_PATH });
}

/** One call with exactly the bytes h2load will send, over HTTP/2 as h2load sends them. */
export function probe(authority: string, frame: Buffer, limit: number): Promise<void> {
  return new Promise<void>((res, rej) => {
    const session = connect(authority);
    session.on('error', rej);
    const req = session.request({ ':method': 'POST', ':path': SEARCH_PATH, 'content-type': 'application/grpc', te: 'trailers' });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    req.on('response', (h) => (status = h['grpc-status'] as string | undefined)); // trailers-only answers
    req.on('trailers', (h) => (status = h['grpc-status'] as string | undefined));
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('error', rej);
    req.on('end', () => {
      session.close();
      try {
        if (status !== '0') throw new Error(`grpc-status ${String(status)} for the h2load body`);
        checkSearchAnswer(unframe(Buffer.concat(chunks)), limit);
        res();
      } catch (e) {
        rej(e instanceof Error ? e : new Error(String(e)));
      }
    });
    req.end(frame);
  });
}

interface ProcRun {
  figures: H2loadFigures;
  cpuS: number;
}

function runOne(path: string, args: string[]): Promise<ProcRun> {
  return new Promise<ProcRun>((res, rej) => {
    // `times` after h2load: the shell's children's CPU, since h2load's /proc entry is gone when it exits
    const p = spawn('sh', ['-c', '"$0" "$@"; rc=$?; times; exit $rc', path, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(p);
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.once('exit', (code) => {
      if (code !== 0) return rej(new Error(`h2load exited with ${code}: ${out.slice(-1000)}`));
      try {
        res({ figures: parseH2load(out), cpuS: parseTimes(out) });
      } catch (e) {
        rej(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

let files = 0;

/** A gRPC peak run with h2load (BENCH_H2LOAD_PROCS processes, BENCH_H2LOAD_STREAMS per connection). */
export async function runH2load(o: GrpcLoadConfig, scratch: string, target: Target, procs: number, streams: number): Promise<Measured> {
  const path = H2LOAD.path;
  if (path === null) throw new Error('h2load is not installed');
  const clients = splitClients(o.concurrency, Math.min(procs, o.vectors.length), streams);
  const messages = encodeSearches(o.collection, o.vectors.slice(0, clients.length), o.limit, o.hnswEf);
  const bodies = messages.map((m) => {
    const file = join(scratch, `h2load-${++files}.bin`);
    writeFileSync(file, grpcFrame(m));
    return { file, frame: grpcFrame(m) };
  });
  const url = `http://${o.target}${SEARCH_PATH}`;
  for (const b of bodies) await probe(`http://${o.target}`, b.frame, o.limit);
  const args = (seconds: number, i: number): string[] => [
    `-c${clients[i]!}`,
    `-m${streams}`,
    `-D${seconds}`,
    '-H',
    'content-type: application/grpc',
    '-H',
    'te: trailers',
    '-d',
    bodies[i]!.file,
    url,
  ];
  const all = (seconds: number): Promise<ProcRun[]> => Promise.all(clients.map((_, i) => runOne(path, args(seconds, i))));
  if (o.warmupSeconds > 0) await all(o.warmupSeconds);
  const codes0 = await grpcCodes(o.restUrl);
  const before = sampleCpu(target.pid, target.tidFile);
  const runs = await all(o.seconds);
  const after = sampleCpu(target.pid, target.tidFile);
  const codes1 = await grpcCodes(o.restUrl);
  const statusCodes: Record<string, number> = {};
  for (const [code, n] of codes1) if (n - (codes0.get(code) ?? 0) > 0) statusCodes[`grpc ${code}`] = n - (codes0.get(code) ?? 0);
  const okDelta = statusCodes['grpc OK'] ?? 0;
  const notOk = Object.entries(statusCodes).reduce((s, [k, n]) => (k === 'grpc OK' ? s : s + n), 0);
  const sum = (f: (r: ProcRun) => number): number => runs.reduce((s, r) => s + f(r), 0);
  const succeeded = sum((r) => r.figures.succeeded);
  // the server's counters also take calls still in flight when h2load stopped counting, so they
  // may run ahead of h2load's figures, never behind: an OK deficit or any other code is failure
  const ok = Math.max(0, Math.min(succeeded - notOk, okDelta));
  const failed = sum((r) => r.figures.total - r.figures.succeeded) + (succeeded - ok);
  const durationS = Math.max(...runs.map((r) => r.figures.durationS));
  const meanMs = sum((r) => r.figures.latencyMs.mean * r.figures.succeeded) / Math.max(1, succeeded);
  const load: LoadResult = {
    generator: `h2load x${clients.length} (${clients.reduce((a, b) => a + b, 0)} connections, ${streams} stream${streams === 1 ? '' : 's'} each)`,
    ok,
    failed,
    durationS,
    qps: ok / durationS,
    // h2load gives no percentiles, only min, max, mean and sd
    latencyMs: { p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, mean: meanMs, max: Math.max(...runs.map((r) => r.figures.latencyMs.max)) },
    targetRate: null,
    clientCpuMsPerRequest: (sum((r) => r.cpuS) * 1000) / Math.max(1, ok),
    firstError:
      failed > 0
        ? `h2load: ${succeeded} succeeded of ${sum((r) => r.figures.total)}; server gRPC codes ${JSON.stringify(statusCodes)}`
        : null,
    statusCodes,
  };
  return { load, serverCpu: cpuPerRequest(before, after, ok) };
}
