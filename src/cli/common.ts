// What every client-side command shares: the error that ends a command with a message, and the
// retry of answers that mean "try again soon".

import { QuiverClientError } from '../client/index.js';

/** Ends the command: the message goes to stderr as `quiver: message`, the exit code is 1. */
export class CliError extends Error {}

/**
 * 503 (a shard worker being replaced) passes: it is retried as the client retries 412 `Engine not
 * initialized` at start-up (docs/decisions.md section 5, done inside the client): 500 ms, doubling, at
 * most 5 retries. Anything else is the caller's.
 */
export async function withRetry<T>(op: () => Promise<T>, delayMs = 500, retries = 5, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (e) {
      const transient = e instanceof QuiverClientError && e.status === 503;
      if (!transient || attempt >= retries) throw e;
      await sleep(delayMs * 2 ** attempt);
    }
  }
}
