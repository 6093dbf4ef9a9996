// Failed-login limiter per client address (DESIGN.md section 3: 429 with Retry-After). A fixed
// window per address: after MAX failures within WINDOW, every login from that address is refused
// until the window ends, with the right password too, so guessing cannot go on; a success clears
// the address. Refused attempts never reach argon2, which also caps the CPU a flood can burn.
// Memory is bounded: expired windows are swept once the map grows, and past the hard cap the
// oldest entry gives way.

export interface LimiterOptions {
  maxFailures: number;
  windowMs: number;
  now?: () => number;
  maxEntries?: number;
}

interface Window {
  failures: number;
  endsAt: number;
}

export class FailureLimiter {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #maxEntries: number;
  readonly #windows = new Map<string, Window>();

  constructor(opts: LimiterOptions) {
    this.#max = opts.maxFailures;
    this.#windowMs = opts.windowMs;
    this.#now = opts.now ?? Date.now;
    this.#maxEntries = opts.maxEntries ?? 100_000;
  }

  /** Seconds to wait before trying again, or 0 when an attempt is allowed now. */
  retryAfter(address: string): number {
    const w = this.#windows.get(address);
    if (w === undefined) return 0;
    const now = this.#now();
    if (now >= w.endsAt) {
      this.#windows.delete(address);
      return 0;
    }
    return w.failures >= this.#max ? Math.max(1, Math.ceil((w.endsAt - now) / 1000)) : 0;
  }

  fail(address: string): void {
    const now = this.#now();
    const w = this.#windows.get(address);
    if (w !== undefined && now < w.endsAt) {
      w.failures++;
      return;
    }
    this.#windows.delete(address);
    if (this.#windows.size >= this.#maxEntries) this.#sweep(now);
    this.#windows.set(address, { failures: 1, endsAt: now + this.#windowMs });
  }

  succeed(address: string): void {
    this.#windows.delete(address);
  }

  get size(): number {
    return this.#windows.size;
  }

  #sweep(now: number): void {
    for (const [k, w] of this.#windows) if (now >= w.endsAt) this.#windows.delete(k);
    // Still full: drop the oldest (Map keeps insertion order).
    while (this.#windows.size >= this.#maxEntries) {
      const oldest = this.#windows.keys().next();
      if (oldest.done === true) break;
      this.#windows.delete(oldest.value);
    }
  }
}
