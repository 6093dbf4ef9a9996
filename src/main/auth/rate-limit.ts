// Failed-login limiter per client address (docs/decisions.md section 3: 429 with Retry-After), on
// rate-limiter-flexible's in-memory fixed window: every attempt takes a point up front (so
// parallel guesses count too), past maxFailures within the window every login from that address
// is refused until the window ends, the right password included, and a success clears the
// address. Refused attempts never reach argon2, which also caps the CPU a flood can burn. Each
// window expires by itself, so memory holds only the addresses that failed within one window.

import { createRequire } from 'node:module';
import type { RateLimiterMemory as MemoryLimiter, RateLimiterRes as LimiterRes } from 'rate-limiter-flexible';

// The package's index loads every store it supports (Redis, Mongo, SQL, etcd, ...): 30 ms of the
// main thread's CPU at start, measured here, against 5 ms for the two files used.
const require = createRequire(import.meta.url);
const RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof MemoryLimiter;
const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof LimiterRes;

export interface LimiterOptions {
  maxFailures: number;
  windowMs: number;
}

export class LoginLimiter {
  readonly #limiter: MemoryLimiter;

  constructor(opts: LimiterOptions) {
    this.#limiter = new RateLimiterMemory({ points: opts.maxFailures, duration: opts.windowMs / 1000 });
  }

  /** Counts an attempt: 0 when it may go on, else the seconds to wait before trying again. */
  async attempt(address: string): Promise<number> {
    try {
      await this.#limiter.consume(address);
      return 0;
    } catch (res) {
      if (res instanceof RateLimiterRes) return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw res;
    }
  }

  async succeed(address: string): Promise<void> {
    await this.#limiter.delete(address);
  }
}
