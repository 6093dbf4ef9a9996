// What the bench reads from Linux /proc about the server: CPU time per thread group and RssAnon.
//
// Which threads are Quiver's shard workers: on Node 20 every thread of the process is named
// "node" in /proc/<pid>/task/<tid>/comm, so names cannot tell them apart. The bench therefore
// starts the server with a preload (TID_PROBE_SOURCE, written to a temp file and given through
// NODE_OPTIONS=--require, which Node applies to worker threads too) that appends "<tid> main|worker <threadId>" to a file as each
// JS thread starts. The main thread is the task whose tid is the pid; "other" is everything else
// (V8 platform threads: GC and compiler; the libuv pool; native addon threads such as LMDB's).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The preload (CommonJS, since --require runs before any ES module): appends
 * "<tid> main|worker <threadId>" to $QUIVER_BENCH_TID_FILE as each JS thread starts.
 */
export const TID_PROBE_SOURCE = `'use strict';
const file = process.env.QUIVER_BENCH_TID_FILE;
if (file) {
  try {
    const fs = require('node:fs');
    const wt = require('node:worker_threads');
    const tid = fs.readlinkSync('/proc/thread-self').split('/').pop();
    fs.appendFileSync(file, tid + ' ' + (wt.isMainThread ? 'main' : 'worker') + ' ' + wt.threadId + '\\n');
  } catch {}
}
`;

/** Clock ticks per second of utime/stime (USER_HZ). */
export const CLK_TCK: number = (() => {
  try {
    const v = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(v) && v > 0 ? v : 100;
  } catch {
    return 100;
  }
})();

/** utime + stime in ticks from one /proc/.../stat line; the name field may hold spaces and parentheses. */
export function statTicks(stat: string): number {
  const close = stat.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc stat line: ${stat.slice(0, 80)}`);
  // after ") ": state(3) ppid(4) ... utime(14) stime(15), numbered from 1 with pid and comm first
  const f = stat.slice(close + 2).trim().split(/\s+/);
  const utime = Number(f[11]);
  const stime = Number(f[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`bad utime/stime in: ${stat.slice(0, 120)}`);
  return utime + stime;
}

/** The JS worker thread ids the preload recorded (appended lines "<tid> main|worker <threadId>"). */
export function parseTidFile(text: string): { main: number | null; workers: Set<number> } {
  const workers = new Set<number>();
  let main: number | null = null;
  for (const line of text.split('\n')) {
    const [tid, kind] = line.trim().split(/\s+/);
    const n = Number(tid);
    if (!Number.isInteger(n) || n <= 0) continue;
    if (kind === 'worker') workers.add(n);
    else if (kind === 'main') main = n;
  }
  return { main, workers };
}

export interface CpuSample {
  /** milliseconds of CPU, per group, of the threads alive at sampling time */
  mainMs: number;
  workersMs: number;
  otherMs: number;
  /** the whole process (includes threads that have ended) */
  processMs: number;
  workerThreads: number;
  at: number;
}

export function readTicks(path: string): number | null {
  try {
    return statTicks(readFileSync(path, 'utf8'));
  } catch {
    return null; // the thread ended between listing and reading
  }
}

export function sampleCpu(pid: number, tidFile: string | null): CpuSample {
  const workers = tidFile !== null && existsSync(tidFile) ? parseTidFile(readFileSync(tidFile, 'utf8')).workers : new Set<number>();
  let main = 0;
  let work = 0;
  let other = 0;
  let workerThreads = 0;
  for (const name of readdirSync(`/proc/${pid}/task`)) {
    const tid = Number(name);
    const t = readTicks(`/proc/${pid}/task/${name}/stat`);
    if (t === null) continue;
    if (tid === pid) main += t;
    else if (workers.has(tid)) {
      work += t;
      workerThreads++;
    } else other += t;
  }
  const proc = readTicks(`/proc/${pid}/stat`) ?? main + work + other;
  const ms = (ticks: number): number => (ticks * 1000) / CLK_TCK;
  return { mainMs: ms(main), workersMs: ms(work), otherMs: ms(other), processMs: ms(proc), workerThreads, at: performance.now() };
}

export interface CpuPerRequest {
  mainMs: number;
  workersMs: number;
  otherMs: number;
  totalMs: number;
  /** CPU seconds per wall second over the window, for the whole process */
  coresBusy: number;
  workerThreads: number;
}

/** CPU milliseconds per completed request between two samples. */
export function cpuPerRequest(a: CpuSample, b: CpuSample, requests: number): CpuPerRequest {
  const per = (x: number): number => (requests > 0 ? x / requests : Number.NaN);
  return {
    mainMs: per(b.mainMs - a.mainMs),
    workersMs: per(b.workersMs - a.workersMs),
    otherMs: per(b.otherMs - a.otherMs),
    totalMs: per(b.processMs - a.processMs),
    coresBusy: (b.processMs - a.processMs) / Math.max(1, b.at - a.at),
    workerThreads: b.workerThreads,
  };
}

/** CPU milliseconds of a whole process so far (null when it has ended). */
export function processCpuMs(pid: number): number | null {
  const t = readTicks(`/proc/${pid}/stat`);
  return t === null ? null : (t * 1000) / CLK_TCK;
}

/** A `<key>:   <n> kB` field of /proc/<pid>/status, in bytes. */
export function statusBytes(status: string, key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

/** Anonymous resident memory (LMDB's mapped file pages are not in it), and VmRSS beside it. */
export function memoryOf(pid: number): { rssAnon: number; rss: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssAnon: statusBytes(s, 'RssAnon'), rss: statusBytes(s, 'VmRSS') };
}
