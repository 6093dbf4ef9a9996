// `node dist/bench/restart-times.js`: spawn -> /readyz 200 over several starts of one data dir,
// builds alternating, to compare start-up changes on a busy machine (one start is noise; the
// median of alternating starts in the same minutes is a figure). Per start it also reads the
// server's 'start-up' line: the main thread's marks and each worker's, [wall ms, CPU ms], and the
// whole process's CPU at ready (every thread: what the start costs on a machine of 2 cores, which
// the wall time of a busy machine hides).
//
// BENCH_DATA_DIR   the data dir to start (required; an ingested one, e.g. from memory-trace.ts)
// BENCH_DATA_DIRS  comma-separated, one per entry, instead: builds whose saved files differ (a
//                  manifest format) each start their own copy of the same data
// BENCH_ENTRIES    comma-separated entry scripts (dist/src/main/index.js of each build; inside
//                  the repo, so node_modules resolve); default: this repo's dist
// BENCH_STARTS     starts per entry (5)
// BENCH_COPY=1     start a fresh copy of the dir each time (a kill -9 dir: a start replays and
//                  saves, so the next one would replay nothing)

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY, envInt, progress, stopAll } from './common.js';
import { startQuiver, stopQuiver } from './lib/server.js';

const ENTRIES = (process.env.BENCH_ENTRIES ?? ENTRY).split(',').filter((e) => e !== '');
const DIRS = (process.env.BENCH_DATA_DIRS ?? '').split(',').filter((e) => e !== '');
const DATA = process.env.BENCH_DATA_DIR;
if (DIRS.length === 0 && (DATA === undefined || DATA === '')) throw new Error('BENCH_DATA_DIR: the data dir to start');
if (DIRS.length > 0 && DIRS.length !== ENTRIES.length) throw new Error(`BENCH_DATA_DIRS: ${DIRS.length} dirs for ${ENTRIES.length} entries`);
const dataOf = (entry: string): string => (DIRS.length > 0 ? DIRS[ENTRIES.indexOf(entry)]! : DATA!);
const STARTS = envInt('BENCH_STARTS', 5);
const COPY = process.env.BENCH_COPY === '1';

type Mark = [string, number, number | null];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface StartupLine {
  main?: Mark[];
  workers?: Mark[][];
  shards?: unknown[];
}

/** The server's 'start-up' log line (it may trail /readyz by a moment), or null. */
async function startupLine(logs: string[]): Promise<StartupLine | null> {
  for (let t = 0; t < 80; t++) {
    const raw = logs.find((l) => l.includes('"msg":"start-up"'));
    if (raw !== undefined) return JSON.parse(raw) as StartupLine;
    await new Promise((r) => setTimeout(r, 25));
  }
  return null;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quiver-restarts-'));
  const ready = new Map<string, number[]>(ENTRIES.map((e) => [e, []]));
  const readyCpu = new Map<string, number[]>(ENTRIES.map((e) => [e, []]));
  const marks = new Map<string, Map<string, number[]>>(ENTRIES.map((e) => [e, new Map()]));
  try {
    for (let i = 0; i < STARTS; i++) {
      for (const entry of ENTRIES) {
        const dir = COPY ? join(scratch, `copy-${i}`) : dataOf(entry);
        if (COPY) cpSync(dataOf(entry), dir, { recursive: true });
        const q = await startQuiver({ dataDir: dir, workers: availableParallelism(), scratch, entry });
        ready.get(entry)!.push(q.readyMs);
        if (q.readyCpuMs !== null) readyCpu.get(entry)!.push(q.readyCpuMs);
        const line = await startupLine(q.server.logs);
        const m = marks.get(entry)!;
        const add = (k: string, v: number | null): void => {
          if (v !== null) m.set(k, [...(m.get(k) ?? []), v]);
        };
        for (const [name, wall, cpu] of line?.main ?? []) {
          add(`main ${name} wall`, wall);
          add(`main ${name} cpu`, cpu);
        }
        (line?.workers ?? []).forEach((w, n) => {
          for (const [name, wall, cpu] of w) {
            add(`worker${n} ${name} wall`, wall);
            add(`worker${n} ${name} cpu`, cpu);
          }
        });
        progress(`${entry}: ready ${q.readyMs.toFixed(0)} ms, process CPU ${q.readyCpuMs?.toFixed(0) ?? '?'} ms ${JSON.stringify(line?.shards ?? [])}`);
        await stopQuiver(q);
        if (COPY) rmSync(dir, { recursive: true, force: true });
      }
    }
    const out: Record<string, unknown> = {};
    for (const entry of ENTRIES) {
      const r = ready.get(entry)!;
      const phases: Record<string, number> = {};
      for (const [k, v] of marks.get(entry)!) phases[k] = Math.round(median(v));
      const c = readyCpu.get(entry)!;
      out[entry] = { readyMedianMs: Math.round(median(r)), readyMs: r.map((x) => Math.round(x)), readyCpuMedianMs: Math.round(median(c)), readyCpuMs: c.map((x) => Math.round(x)), phases };
    }
    console.log(JSON.stringify(out, null, 1));
  } finally {
    await stopAll();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
