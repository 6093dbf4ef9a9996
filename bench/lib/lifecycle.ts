// The run lifecycle: every child process the run started (servers, load generators), and a way
// out that always stops them (SIGTERM, then SIGKILL), error, signal or timeout, then cleans up.

import type { ChildProcess } from 'node:child_process';
import { progress } from './env.js';
import type { Server } from './server-child.js';

/** The child processes started and not yet exited: stopped on the way out. */
export const live = new Set<ChildProcess>();

/** Adds a child process (a load generator) to those the run stops on its way out. */
export function trackChild(proc: ChildProcess): void {
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
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
