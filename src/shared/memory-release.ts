// Giving a thread's JavaScript garbage back to the system once a burst is over (issue 14).
//
// V8 keeps the heap pages a burst of allocation grew to (an ingest's parsed request bodies and
// number[] rows for hnswlib, a load's staged rows and decoded LMDB records) until its memory
// reducer runs, minutes later; measured at 100k x 128 on 2 workers, the three heaps held about
// 170 MiB after an ingest, 110 MiB of it garbage, and RssAnon fell by 100 MiB only after two idle
// minutes. A full collection, run twice (V8 unmaps the pages the first one emptied at the
// second), returns them at once: about 15-50 ms of the thread's time. The native memory those
// objects held goes back to glibc's arenas, which keep it: malloc_trim (malloc-trim.ts, when
// built) hands the free pages back to the system.
//
// Invariants: a collection runs only in a quiet period (this thread's event loop was busy less
// than QUIET_UTILIZATION of the last check interval) and only when the heap and array buffers
// have grown by at least `slackBytes` since the last collection, so a steady load never pays
// for it and a quiet server pays at most one per burst. While busy, only malloc_trim runs, at
// most every busyTrimMs (measured at 100k x 128: RssAnon right after an ingest 251 MiB against
// 271 MiB without, ingest time unchanged). Without a way to reach V8's gc()
// (no --expose-gc and the flag cannot be set), nothing is collected.

import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mallocTrim } from './malloc-trim.js';
import { PROBE_ON, probeRecord } from './latency-probe.js';

/** Share of a check interval this thread's event loop may have been busy for it to count as quiet. */
const QUIET_UTILIZATION = 0.05;

let gcFn: (() => void) | null | undefined;

/** V8's gc(): exposed to a fresh context by the --expose-gc flag (process-wide, harmless otherwise). */
function gcFunction(): (() => void) | null {
  if (gcFn !== undefined) return gcFn;
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return (gcFn = existing as () => void);
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    gcFn = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    gcFn = null;
  }
  return gcFn;
}

/** The memory a collection can give back: the committed heap and the array buffers' backing stores. */
function collectable(): number {
  const m = process.memoryUsage();
  return m.heapTotal + m.arrayBuffers;
}

/**
 * Collects now (twice by default: see the file comment; once where the next collection comes
 * soon anyway), then hands glibc's free arena pages back (malloc-trim.ts) where the addon is
 * built. False when gc() is out of reach.
 */
export function collectGarbage(passes: 1 | 2 = 2): boolean {
  const gc = gcFunction();
  if (gc === null) return false;
  const t0 = PROBE_ON ? performance.now() : 0;
  gc();
  if (passes === 2) gc();
  const t1 = PROBE_ON ? performance.now() : 0;
  mallocTrim?.();
  if (PROBE_ON) {
    probeRecord('release-gc', t1 - t0);
    probeRecord('release-trim', performance.now() - t1);
  }
  return true;
}

export interface MemoryReleaseOptions {
  /** How often the thread checks for a quiet period with garbage to give back. */
  intervalMs: number;
  /** Growth since the last collection below which nothing is collected. */
  slackBytes: number;
  /** While busy, malloc_trim at most this often (glibc's free pages, no collection). */
  busyTrimMs: number;
  /** malloc_trim (null: none; tests pass their own). */
  trim: (() => boolean) | null;
}

export const MEMORY_RELEASE_DEFAULTS: MemoryReleaseOptions = { intervalMs: 1000, slackBytes: 16 * 1024 * 1024, busyTrimMs: 2000, trim: mallocTrim };

/**
 * Watches this thread (see the file comment); `soonMs` also collects once that long from now,
 * whatever the growth (the end of a load). The timers never keep the thread alive.
 */
export class MemoryRelease {
  readonly #options: MemoryReleaseOptions;
  #floor = collectable();
  #elu: EventLoopUtilization = performance.eventLoopUtilization();
  readonly #timer: NodeJS.Timeout;
  #trimmedAt = 0;
  /** Collections run so far, and malloc_trim calls made while busy. */
  collections = 0;
  busyTrims = 0;

  constructor(options: Partial<MemoryReleaseOptions> = {}) {
    this.#options = { ...MEMORY_RELEASE_DEFAULTS, ...options };
    this.#timer = setInterval(() => this.#check(), this.#options.intervalMs);
    this.#timer.unref();
  }

  /** Collects once, `ms` from now, whatever the growth: the end of a burst known to leave garbage. */
  collectSoon(ms: number): void {
    setTimeout(() => this.#collect(), ms).unref();
  }

  #check(): void {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, this.#elu).utilization;
    this.#elu = now;
    if (busy >= QUIET_UTILIZATION) {
      // Busy (an ingest): no collection, but the arenas' free pages go back now and then.
      const trim = this.#options.trim;
      if (trim !== null && Date.now() - this.#trimmedAt >= this.#options.busyTrimMs) {
        this.#trimmedAt = Date.now();
        const t0 = PROBE_ON ? performance.now() : 0;
        trim();
        if (PROBE_ON) probeRecord('release-busy-trim', performance.now() - t0);
        this.busyTrims++;
      }
      return;
    }
    if (collectable() - this.#floor < this.#options.slackBytes) return;
    this.#collect();
  }

  #collect(): void {
    if (collectGarbage()) this.collections++;
    this.#floor = collectable();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
