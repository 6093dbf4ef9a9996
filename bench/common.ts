// Helpers shared by the benches (bench/run.ts, bench/filters.ts): env sizing, seeded data and
// exact ground truth, the built server in a child process (loopback, temp data dir), HTTP calls,
// autocannon through a small typed interface, and a run lifecycle that always stops the servers
// it started (SIGTERM, then SIGKILL), error or not.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

// ---------------------------------------------------------------------------------------------
// autocannon 9 has no bundled types: the minimal surface used here.

export interface AcRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
interface AcClient {
  setRequests(requests: AcRequest[]): void;
}
interface AcHistogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
}
export interface AcResult {
  requests: AcHistogram;
  latency: AcHistogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AcOptions {
  url: string;
  connections: number;
  pipelining: number;
  duration: number;
  timeout: number;
  requests: AcRequest[];
  setupClient?: (client: AcClient) => void;
}
/** The instance autocannon returns: its 'response' event carries the exact latency in ms. */
interface AcInstance {
  on(event: 'response', fn: (client: unknown, statusCode: number, resBytes: number, responseTimeMs: number) => void): void;
}
type Autocannon = (opts: AcOptions, cb: (err: Error | null, result: AcResult) => void) => AcInstance;

const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

// ---------------------------------------------------------------------------------------------
// configuration

export function envInt(name: string, def: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`);
  return v;
}

export const REPO = resolve(import.meta.dirname, '..', '..');
export const ENTRY = join(REPO, 'dist', 'src', 'main', 'index.js');
export const RESULTS_DIR = join(REPO, 'bench', 'results');

export function progress(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

// ---------------------------------------------------------------------------------------------
// data: seeded random vectors. Components are whole millionths in [-1, 1], kept as Int32Array, so
// the JSON sent to Quiver, the number[] given to hnswlib and the ground truth all see the same
// values (v / 1e6 prints as its short decimal form).

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomMicros(n: number, dim: number, seed: number): Int32Array {
  const r = rng(seed);
  const out = new Int32Array(n * dim);
  for (let i = 0; i < out.length; i++) out[i] = Math.round((r() * 2 - 1) * 1e6);
  return out;
}

export function row(micros: Int32Array, i: number, dim: number): number[] {
  const out = new Array<number>(dim);
  const base = i * dim;
  for (let d = 0; d < dim; d++) out[d] = micros[base + d]! / 1e6;
  return out;
}

export function rowJson(micros: Int32Array, i: number, dim: number): string {
  return '[' + row(micros, i, dim).join(',') + ']';
}

export function normalised(micros: Int32Array, n: number, dim: number): Float32Array {
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const base = i * dim;
    let s = 0;
    for (let d = 0; d < dim; d++) {
      const v = micros[base + d]! / 1e6;
      s += v * v;
    }
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let d = 0; d < dim; d++) out[base + d] = (micros[base + d]! / 1e6) * inv;
  }
  return out;
}

/**
 * Keeps `ids`/`scores` the best `k` seen so far, best first, by insertion. Ids offered in
 * ascending order keep ties by id (an equal score stays behind the one already there).
 */
export function pushTop(ids: number[], scores: number[], k: number, id: number, score: number): void {
  if (k <= 0 || (ids.length >= k && score <= scores[ids.length - 1]!)) return;
  let x = ids.length < k ? ids.length : k - 1;
  if (ids.length < k) {
    ids.push(id);
    scores.push(score);
  }
  while (x > 0 && scores[x - 1]! < score) {
    ids[x] = ids[x - 1]!;
    scores[x] = scores[x - 1]!;
    x--;
  }
  ids[x] = id;
  scores[x] = score;
}

/**
 * Exact top-k ids by cosine similarity (dot product of normalised vectors), per query, over
 * `among`: the first `among` points when a number, else exactly the ids listed (ascending).
 */
export function bruteForce(data: Float32Array, queries: Float32Array, nq: number, dim: number, k: number, among: number | ArrayLike<number>): number[][] {
  const n = typeof among === 'number' ? among : among.length;
  const idAt = typeof among === 'number' ? (j: number): number => j : (j: number): number => among[j]!;
  const truth: number[][] = [];
  for (let q = 0; q < nq; q++) {
    const qb = q * dim;
    const ids: number[] = [];
    const scores: number[] = [];
    for (let j = 0; j < n; j++) {
      const i = idAt(j);
      const base = i * dim;
      let s = 0;
      for (let d = 0; d < dim; d++) s += data[base + d]! * queries[qb + d]!;
      pushTop(ids, scores, k, i, s);
    }
    truth.push(ids);
  }
  return truth;
}

export function recallOf(found: readonly number[][], truth: readonly number[][]): number {
  let hit = 0;
  let total = 0;
  for (let q = 0; q < truth.length; q++) {
    const want = new Set(truth[q]);
    for (const id of found[q] ?? []) if (want.has(id)) hit++;
    total += truth[q]!.length;
  }
  return total === 0 ? 0 : hit / total;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function latencyStats(ms: number[]): { p50: number; p99: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length) };
}

// ---------------------------------------------------------------------------------------------
// the server child process

export interface Server {
  proc: ChildProcess;
  url: string;
  pid: number;
  logs: string[];
  problems: string[];
  spawnedAt: number;
  listeningMs: number;
  ready: Promise<{ readyMs: number; loadMs: number | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<ChildProcess>();

/** Adds a child process (a load generator) to those the run stops on its way out. */
export function trackChild(proc: ChildProcess): void {
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
}

/**
 * Starts the built server (dist/src/main/index.js) on 127.0.0.1, ephemeral ports, `shards`
 * workers; `extraEnv` is added to (and wins over) the environment.
 */
export function startServer(dataDir: string, shards: number, extraEnv: Record<string, string> = {}, entry = ENTRY): Promise<Server> {
  const spawnedAt = performance.now();
  // BENCH_NODE_ARGS: node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (not allowed in NODE_OPTIONS)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const proc = spawn(process.execPath, [...nodeArgs, entry], {
    env: {
      ...process.env,
      SERVICE_HOST: '127.0.0.1',
      SERVICE_REST_PORT: '0',
      SERVICE_GRPC_PORT: '0',
      SERVICE_DATA_DIR: dataDir,
      SERVICE_SHARDS: String(shards),
      SERVICE_LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  const logs: string[] = [];
  const problems: string[] = [];
  const keep = (line: string): void => {
    logs.push(line);
    if (logs.length > 2000) logs.splice(0, logs.length - 2000);
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.once('exit', (code, signal) => {
      live.delete(proc);
      res({ code, signal });
    }),
  );
  let onReady: (v: { readyMs: number; loadMs: number | null }) => void = () => undefined;
  const ready = new Promise<{ readyMs: number; loadMs: number | null }>((res, rej) => {
    onReady = res;
    void exited.then(({ code, signal }) => rej(new Error(`server exited (code ${code}, signal ${signal}) before 'engine ready'`)));
  });
  ready.catch(() => undefined);
  return new Promise<Server>((res, rej) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      keep(line);
      let rec: { msg?: unknown; level?: unknown; rest_port?: unknown; load_ms?: unknown };
      try {
        rec = JSON.parse(line) as typeof rec;
      } catch {
        problems.push(`stdout (not JSON): ${line}`);
        return;
      }
      if (typeof rec.level === 'number' && rec.level >= 40) problems.push(line);
      if (rec.msg === 'REST listening' && typeof rec.rest_port === 'number') {
        res({
          proc,
          url: `http://127.0.0.1:${rec.rest_port}`,
          pid: proc.pid!,
          logs,
          problems,
          spawnedAt,
          listeningMs: performance.now() - spawnedAt,
          ready,
          exited,
        });
      }
      if (rec.msg === 'engine ready') {
        onReady({ readyMs: performance.now() - spawnedAt, loadMs: typeof rec.load_ms === 'number' ? rec.load_ms : null });
      }
    });
    createInterface({ input: proc.stderr! }).on('line', (line) => {
      keep(line);
      problems.push(`stderr: ${line}`);
    });
    void exited.then(({ code, signal }) =>
      rej(new Error(`server exited (code ${code}, signal ${signal}) before listening:\n${logs.slice(-40).join('\n')}`)),
    );
  });
}

/** SIGTERM, then SIGKILL after graceMs. Resolves with how it ended and how long it took. */
export async function stopServer(
  s: Server,
  graceMs = 30_000,
): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null; killed: boolean }> {
  const t0 = performance.now();
  if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const forced = new Promise<'timeout'>((res) => (timer = setTimeout(() => res('timeout'), graceMs)));
  const first = await Promise.race([s.exited, forced]);
  clearTimeout(timer);
  if (first === 'timeout') {
    s.proc.kill('SIGKILL');
    const r = await s.exited;
    return { ms: performance.now() - t0, ...r, killed: true };
  }
  return { ms: performance.now() - t0, ...first, killed: false };
}

/** SIGTERM to every server and load generator still running, SIGKILL after `graceMs`; waits for all. */
export async function stopAll(graceMs = 10_000): Promise<void> {
  await Promise.all(
    [...live].map(
      (p) =>
        new Promise<void>((res) => {
          if (p.exitCode !== null || p.signalCode !== null) return res();
          const timer = setTimeout(() => {
            p.kill('SIGKILL');
          }, graceMs);
          p.once('exit', () => {
            clearTimeout(timer);
            res();
          });
          p.kill('SIGTERM');
        }),
    ),
  );
}

function killAllNow(): void {
  for (const p of live) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function call(base: string, method: string, path: string, body?: string): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json, text };
}

export async function callOk(base: string, method: string, path: string, body?: string): Promise<unknown> {
  const r = await call(base, method, path, body);
  if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${path} -> ${r.status}: ${r.text.slice(0, 500)}`);
  return r.json;
}

export function memOf(pid: number): { rss: number; hwm: number } {
  const txt = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(txt);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  };
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

export function idsOf(points: unknown, where: string): number[] {
  if (!Array.isArray(points)) throw new Error(`${where}: expected an array of scored points, got ${JSON.stringify(points).slice(0, 300)}`);
  return points.map((p: unknown) => {
    const id = (p as { id?: unknown }).id;
    if (typeof id !== 'number') throw new Error(`${where}: point without a numeric id: ${JSON.stringify(p).slice(0, 200)}`);
    return id;
  });
}

/**
 * POSTs the bodies round-robin from `connections` connections (pipelining 1) for `seconds`;
 * `opts.onResponse` sees each response's status and exact latency in ms.
 */
export function autocannonRun(
  url: string,
  path: string,
  bodies: string[],
  seconds: number,
  connections: number,
  opts: { onResponse?: (status: number, ms: number) => void } = {},
): Promise<AcResult> {
  const base: AcRequest[] = bodies.map((body) => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body }));
  let nextClient = 0;
  return new Promise<AcResult>((res, rej) => {
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        requests: base,
        // each connection walks the query bodies from its own starting point
        setupClient: (client) => {
          const start = (nextClient++ * 7) % base.length;
          client.setRequests([...base.slice(start), ...base.slice(0, start)].map((r) => ({ ...r })));
        },
      },
      (err, result) => (err ? rej(err) : res(result)),
    );
    const onResponse = opts.onResponse;
    if (onResponse !== undefined) instance.on('response', (_c, status, _b, ms) => onResponse(status, ms));
  });
}

export interface LoadFigures {
  qps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  latencyMs: { p50: number; p90: number; p97_5: number; p99: number; mean: number; max: number };
  durationS: number;
}

export function loadFigures(r: AcResult): LoadFigures {
  const statusCodes: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats)) statusCodes[code] = v.count;
  return {
    qps: r['2xx'] / r.duration,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p97_5: r.latency.p97_5, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
    durationS: r.duration,
  };
}

export function gitCommit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty === '' ? head : `${head}+dirty`;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// the run lifecycle

/** Run on the way out (temp dirs), after the servers are stopped. */
export const cleanups: (() => void)[] = [];
/** The server started last, for its logs when the run fails. */
export const tracked: { current: Server | null } = { current: null };

let finishing = false;
async function finish(code: number): Promise<never> {
  if (!finishing) {
    finishing = true;
    // a polite SIGTERM with a short grace, then SIGKILL for whatever is left
    await Promise.all(
      [...live].map(
        (p) =>
          new Promise<void>((res) => {
            const timer = setTimeout(res, 5000);
            p.once('exit', () => {
              clearTimeout(timer);
              res();
            });
            try {
              p.kill('SIGTERM');
            } catch {
              clearTimeout(timer);
              res();
            }
          }),
      ),
    );
    killAllNow();
    for (const c of cleanups) {
      try {
        c();
      } catch {
        // best effort
      }
    }
  }
  process.exit(code);
}

/**
 * Runs `main`, then exits: 0 on success, 1 on error (with the last server log lines), 130 on
 * SIGINT/SIGTERM, 3 after `timeoutS` (`onAbort` runs first in those two cases, to report what was
 * measured so far). Every server and load generator started is stopped on the way out.
 */
export function runBench(main: () => Promise<void>, timeoutS: number, onAbort?: (why: string) => void): void {
  process.on('exit', killAllNow);
  // what was measured before an abort is still worth having
  const abort = (why: string): void => {
    try {
      onAbort?.(why);
    } catch (e) {
      progress(`could not report the figures so far: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      progress(`${sig}: stopping`);
      abort(sig);
      void finish(130);
    });
  }
  const watchdog = setTimeout(() => {
    progress(`BENCH_TIMEOUT_S=${timeoutS} reached: aborting`);
    abort(`BENCH_TIMEOUT_S=${timeoutS} reached`);
    void finish(3);
  }, timeoutS * 1000);

  main().then(
    () => {
      clearTimeout(watchdog);
      void finish(0);
    },
    (err: unknown) => {
      clearTimeout(watchdog);
      process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      if (tracked.current !== null) process.stderr.write(`last server log lines:\n${tracked.current.logs.slice(-40).join('\n')}\n`);
      void finish(1);
    },
  );
}
