// Operation ids every thread takes from: one 64-bit counter in a SharedArrayBuffer, shared by the
// main thread (gRPC and the routes it still serves) and every coordinating worker. Invariant: an
// id is handed out once, and ids only grow, so a point's version grows with each write to it.
// One counter serves every collection: a collection's operation ids grow, though not by 1.

export class OpIdCounter {
  readonly #cell: BigInt64Array;

  /** A new counter at 0, or a view over a counter another thread created (its `buffer`). */
  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.#cell = new BigInt64Array(buffer, 0, 1);
  }

  /** What to hand to another thread so it takes ids from this same counter. */
  get buffer(): SharedArrayBuffer {
    return this.#cell.buffer as SharedArrayBuffer;
  }

  next(): number {
    return Number(Atomics.add(this.#cell, 0, 1n) + 1n);
  }

  /** Moves the counter up to at least `value` (start-up: past every version on disk). */
  seed(value: number): void {
    const target = BigInt(value);
    for (;;) {
      const cur = Atomics.load(this.#cell, 0);
      if (cur >= target || Atomics.compareExchange(this.#cell, 0, cur, target) === cur) return;
    }
  }
}
