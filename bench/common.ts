// Helpers shared by the benches (bench/run.ts, bench/filters.ts, bench/sparse.ts and the smaller
// ones): HTTP calls to the server and its memory from /proc, here; and, re-exported so every bench
// imports from one place, env sizing and paths (bench/lib/env.ts), seeded data and exact ground
// truth (lib/seeded-data.ts), the built server in a child process (lib/server-child.ts), autocannon
// through a small typed interface (lib/autocannon.ts), and a run lifecycle that always stops the
// servers it started (SIGTERM, then SIGKILL), error or not (lib/lifecycle.ts).

import { readFileSync } from 'node:fs';

export { autocannonRun, loadFigures, type AcRequest, type AcResult, type LoadFigures } from './lib/autocannon.js';
export { ENTRY, envInt, gitCommit, progress, REPO, RESULTS_DIR } from './lib/env.js';
export { cleanups, runBench, stopAll, trackChild, tracked } from './lib/lifecycle.js';
export { bruteForce, latencyStats, normalised, percentile, pushTop, randomMicros, recallOf, rng, row, rowJson } from './lib/seeded-data.js';
export { startServer, stopServer, type Server } from './lib/server-child.js';

/** `headers`: besides content-type (an api-key, a Bearer token). */
export async function call(base: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
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

export async function callOk(base: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<unknown> {
  const r = await call(base, method, path, body, headers);
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
