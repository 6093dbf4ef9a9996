// The small protocol between bench/lib/load.ts and a load-generator child: the parent passes a
// JSON config file as argv[2]; the child prints the line "measuring" when its measured window
// starts (after its warm-up), then one line "result <json>" and exits.

import { readFileSync } from 'node:fs';
import type { PacedFigures } from './h2load-paced.js';

export function readConfig<T>(): T {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: <child> <config.json>');
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function announceMeasuring(): void {
  process.stdout.write('measuring\n');
}

export function reportResult(result: unknown): void {
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
}

/** Latency summary of exact per-request milliseconds. */
export function summarize(ms: number[]): { p50: number; p90: number; p99: number; mean: number; max: number } {
  const s = Float64Array.from(ms).sort();
  const at = (p: number): number => (s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!);
  let sum = 0;
  for (const v of s) sum += v;
  return { p50: at(50), p90: at(90), p99: at(99), mean: s.length === 0 ? Number.NaN : sum / s.length, max: s.length === 0 ? Number.NaN : s[s.length - 1]! };
}

/** What every load child reports. */
export interface LoadResult {
  generator: string;
  ok: number;
  failed: number;
  durationS: number;
  qps: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  /** requests per second asked for (fixed-rate runs) */
  targetRate: number | null;
  /** the child's own CPU per completed request */
  clientCpuMsPerRequest: number;
  firstError: string | null;
  statusCodes: Record<string, number>;
  /** fixed-rate runs by h2load (h2load-paced.ts): its plan, p99.9, histogram and coordinated-omission count */
  paced?: PacedFigures;
}
