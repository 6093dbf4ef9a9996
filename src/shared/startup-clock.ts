// Start-up timing: named marks of one thread's way to ready, each with the wall time since the
// process started and the CPU time this thread has used so far. The main thread logs them in
// its start-up summary, workers send theirs with the ping (PingResult.startup).
//
// Wall times are taken against the process's start (performance.timeOrigin of the main thread,
// passed to workers in WorkerInit.processOrigin), so main and worker marks share one axis. CPU
// time is the thread's own (Linux /proc/thread-self/schedstat, in ns): on a machine whose cores
// are shared, it says what a phase costs where wall time only says how long it waited too.

import { readFileSync } from 'node:fs';

/** One mark: what was done, wall ms since the process started, this thread's CPU ms so far (null: unknown). */
export type StartupMark = [name: string, atMs: number, cpuMs: number | null];

let cpuReadable = true;

/** CPU time this thread has run, in ms, or null where the kernel does not say (not Linux). */
export function threadCpuMs(): number | null {
  if (!cpuReadable) return null;
  try {
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    cpuReadable = false;
    return null;
  }
}

/** Times parts of a task: `lap()` answers [wall ms, CPU ms] since the previous lap (or the start). */
export class Stopwatch {
  #wall = performance.now();
  #cpu = threadCpuMs();
  lap(): [wallMs: number, cpuMs: number | null] {
    const wall = performance.now();
    const cpu = threadCpuMs();
    const out: [number, number | null] = [Math.round(wall - this.#wall), cpu === null || this.#cpu === null ? null : Math.round(cpu - this.#cpu)];
    this.#wall = wall;
    this.#cpu = cpu;
    return out;
  }
}

export class StartupClock {
  readonly #origin: number;
  readonly marks: StartupMark[] = [];

  /** `processOrigin`: the epoch ms the process started (the main thread's performance.timeOrigin). */
  constructor(processOrigin: number = performance.timeOrigin) {
    this.#origin = processOrigin;
  }

  /** Wall ms since the process started. */
  now(): number {
    return performance.timeOrigin + performance.now() - this.#origin;
  }

  mark(name: string): void {
    const cpu = threadCpuMs();
    this.marks.push([name, Math.round(this.now()), cpu === null ? null : Math.round(cpu)]);
  }
}
