// Load runs against a server, each in a child process (bench/lib/http-load-child.ts with
// autocannon, `wrk` when it is on PATH, `h2load` for gRPC when on PATH (bench/lib/h2load.ts),
// else bench/lib/grpc-load-child.ts), bracketed by /proc CPU
// samples of the server so each run also gives the server's CPU per completed request by thread
// group (bench/lib/proc.ts). The samples are taken when the child says its measured window starts
// and when it reports, so its warm-up is not billed.

import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { trackChild } from '../common.js';
import type { LoadResult } from './child-io.js';
import type { GrpcLoadConfig } from './grpc-load-child.js';
import { H2LOAD, runH2load } from './h2load.js';
import type { HttpLoadConfig } from './http-load-child.js';
import { cpuPerRequest, sampleCpu, type CpuPerRequest, type CpuSample } from './proc.js';

export interface Measured {
  load: LoadResult;
  serverCpu: CpuPerRequest;
}

export interface Target {
  pid: number;
  tidFile: string;
}

let configs = 0;

function runChild(script: string, config: unknown, scratch: string, target: Target, timeoutMs: number): Promise<Measured> {
  const file = join(scratch, `load-${++configs}.json`);
  writeFileSync(file, JSON.stringify(config));
  const proc = spawn(process.execPath, [join(import.meta.dirname, script), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(proc);
  let before: CpuSample | null = null;
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 20_000) stderr += d.toString();
  });
  return new Promise<Measured>((res, rej) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rej(new Error(`${script} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    let result: LoadResult | null = null;
    let after: CpuSample | null = null;
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line === 'measuring') before = sampleCpu(target.pid, target.tidFile);
      else if (line.startsWith('result ')) {
        after = sampleCpu(target.pid, target.tidFile);
        result = JSON.parse(line.slice(7)) as LoadResult;
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0 || result === null || before === null || after === null) {
        rej(new Error(`${script} exited with ${code}${result === null ? ' without a result' : ''}: ${stderr.slice(-2000)}`));
        return;
      }
      res({ load: result, serverCpu: cpuPerRequest(before, after, result.ok) });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// wrk (used for the peak runs when on PATH; fixed-rate runs need wrk2's -R)

export const WRK: { path: string | null; hasRate: boolean } = (() => {
  if (process.env.BENCH_WRK === '0') return { path: null, hasRate: false };
  try {
    const path = execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (path === '') return { path: null, hasRate: false };
    let help = '';
    try {
      execFileSync(path, ['--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      // wrk prints its usage and exits 1
      const err = e as { stdout?: string; stderr?: string };
      help = `${err.stdout ?? ''}${err.stderr ?? ''}`;
    }
    return { path, hasRate: /-R,?\s+--rate/.test(help) };
  } catch {
    return { path: null, hasRate: false };
  }
})();

/** A Lua script that POSTs the bodies round-robin, per thread, from a different start each. */
function wrkScript(bodies: string[], path: string, headers: Record<string, string>): string {
  const quoted = bodies.map((b) => `[==[${b}]==]`).join(',\n');
  const extra = Object.entries(headers).map(([k, v]) => `, [${JSON.stringify(k)}] = ${JSON.stringify(v)}`).join('');
  return `local bodies = {\n${quoted}\n}
local i = 0
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("start", counter * 7)
end
function init(args)
  i = start or 0
end
request = function()
  i = i + 1
  return wrk.format("POST", "${path}", { ["Content-Type"] = "application/json"${extra} }, bodies[(i % #bodies) + 1])
end
`;
}

/** wrk's text output -> figures (durations like 1.23ms, 456.00us, 1.2s). */
export function parseWrk(text: string, seconds: number): Omit<LoadResult, 'clientCpuMsPerRequest'> {
  const dur = (v: string): number => {
    const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
    if (!m) return Number.NaN;
    const n = Number(m[1]);
    return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
  };
  const pct = (p: string): number => {
    const m = new RegExp(`^\\s*${p.replace('.', '\\.')}%\\s+(\\S+)`, 'm').exec(text);
    return m ? dur(m[1]!) : Number.NaN;
  };
  const reqs = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(text);
  const total = reqs ? Number(reqs[1]) : 0;
  const durationS = reqs ? dur(`${reqs[2]}${reqs[3]}`) / 1000 : seconds;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = sockErr ? Number(sockErr[1]) + Number(sockErr[2]) + Number(sockErr[3]) + Number(sockErr[4]) : 0;
  const avg = /Latency\s+(\S+)/.exec(text);
  const ok = Math.max(0, total - non2xx);
  return {
    generator: 'wrk',
    ok,
    failed: non2xx + errors,
    durationS,
    qps: ok / durationS,
    latencyMs: { p50: pct('50'), p90: pct('90'), p99: pct('99'), mean: avg ? dur(avg[1]!) : Number.NaN, max: Number.NaN },
    targetRate: null,
    firstError: non2xx + errors > 0 ? `non-2xx ${non2xx}, socket errors ${errors}` : null,
    statusCodes: {},
  };
}

async function runWrk(o: HttpLoadConfig, scratch: string, target: Target): Promise<Measured> {
  const script = join(scratch, `wrk-${++configs}.lua`);
  writeFileSync(script, wrkScript(o.bodies, o.path, o.headers ?? {}));
  const args = (seconds: number, rate: number | null): string[] => [
    '-t2',
    `-c${o.connections}`,
    `-d${seconds}s`,
    '--latency',
    ...(rate === null ? [] : [`-R${Math.max(1, Math.round(rate))}`]),
    '-s',
    script,
    o.url,
  ];
  const run = (a: string[]): Promise<string> =>
    new Promise<string>((res, rej) => {
      const p = spawn(WRK.path!, a, { stdio: ['ignore', 'pipe', 'pipe'] });
      trackChild(p);
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (out += d.toString()));
      p.once('exit', (code) => (code === 0 ? res(out) : rej(new Error(`wrk exited with ${code}: ${out.slice(-1000)}`))));
    });
  if (o.warmupSeconds > 0) await run(args(o.warmupSeconds, o.overallRate));
  const before = sampleCpu(target.pid, target.tidFile);
  const out = await run(args(o.seconds, o.overallRate));
  const after = sampleCpu(target.pid, target.tidFile);
  const f = parseWrk(out, o.seconds);
  return { load: { ...f, targetRate: o.overallRate, clientCpuMsPerRequest: Number.NaN }, serverCpu: cpuPerRequest(before, after, f.ok) };
}

/** A REST load run: wrk when present (and for fixed rates only wrk2), else autocannon. */
export function httpLoad(o: HttpLoadConfig, scratch: string, target: Target): Promise<Measured> {
  const timeoutMs = (o.seconds + o.warmupSeconds) * 1000 + 120_000;
  if (WRK.path !== null && (o.overallRate === null || WRK.hasRate)) return runWrk(o, scratch, target);
  return runChild('http-load-child.js', o, scratch, target, timeoutMs);
}

/** A gRPC peak run: h2load when present (BENCH_H2LOAD=0 forces grpc-js), else the grpc-js child. */
export function grpcLoad(o: GrpcLoadConfig, h2load: { procs: number; streams: number }, scratch: string, target: Target): Promise<Measured> {
  if (H2LOAD.path !== null) return runH2load(o, scratch, target, h2load.procs, h2load.streams);
  return runChild('grpc-load-child.js', o, scratch, target, (o.seconds + o.warmupSeconds) * 1000 + 120_000);
}
