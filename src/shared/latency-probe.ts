// Debug timing for the tail latency of searches (issue 13's p99 at half the peak rate), off
// unless QUIVER_LATENCY_PROBE=1: with it, every thread prints one line per interval on stdout,
// `latency-probe <thread> ...`, with its event loop's utilization and delay percentiles, its GC
// pauses by kind, the memory-release stalls (memory-release.ts), and the request stages the thread
// saw (main thread: before the hand-off, the hand-off round trip per coordinating worker, the
// whole request; coordinator: from the request's start on the main thread to its arrival, and
// the time to answer it). The bench prints the lines of its half-peak run when the variable is set.
//
// Invariants: off, nothing is recorded and no timer or observer runs; callers on a request path
// test PROBE_ON before reading a clock, so the probe costs one branch there. Samples are kept
// only until the next line, so memory stays bounded by one interval's requests.

import { monitorEventLoopDelay, PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';

export const PROBE_ON = process.env.QUIVER_LATENCY_PROBE === '1';

const samples = new Map<string, number[]>();

/** Adds one sample (ms) of `kind` to this interval's line; nothing when the probe is off. */
export function probeRecord(kind: string, ms: number): void {
  if (!PROBE_ON) return;
  let s = samples.get(kind);
  if (s === undefined) samples.set(kind, (s = []));
  s.push(ms);
}

/** Nearest-rank percentile of sorted values. */
function rank(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(Math.round((p / 100) * sorted.length * 1e6) / 1e6) - 1))]!;
}

/** One line's figures per kind, in kind order: count, sum, p50, p99, max (ms, two decimals). */
export function summarizeSamples(by: ReadonlyMap<string, readonly number[]>): string {
  const parts: string[] = [];
  for (const kind of [...by.keys()].sort()) {
    const v = by.get(kind)!;
    if (v.length === 0) continue;
    const s = Float64Array.from(v).sort();
    let sum = 0;
    for (const x of s) sum += x;
    parts.push(`${kind} n=${s.length} sum=${sum.toFixed(2)} p50=${rank(s, 50).toFixed(2)} p99=${rank(s, 99).toFixed(2)} max=${s[s.length - 1]!.toFixed(2)}`);
  }
  return parts.join(' | ');
}

/** V8's GC kinds (perf_hooks constants) by name. */
const GC_KIND: Record<number, string> = { 1: 'gc-scavenge', 2: 'gc-minor-ms', 4: 'gc-mark-compact', 8: 'gc-incremental', 16: 'gc-weak' };

/** Starts this thread's line every `intervalMs` (timers unref'd); does nothing when the probe is off. */
export function startLatencyProbe(thread: string, intervalMs = 5000): void {
  if (!PROBE_ON) return;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } | null }).detail?.kind ?? 0;
      probeRecord(GC_KIND[kind] ?? `gc-${kind}`, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let elu = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, elu).utilization;
    elu = now;
    const ms = (ns: number): string => (ns / 1e6).toFixed(2);
    const line = `latency-probe ${thread}#${threadId} elu=${busy.toFixed(2)} loop-delay p50=${ms(delay.percentile(50))} p99=${ms(delay.percentile(99))} max=${ms(delay.max)} | ${summarizeSamples(samples)}`;
    samples.clear();
    delay.reset();
    process.stdout.write(`${line}\n`);
  }, intervalMs).unref();
}
