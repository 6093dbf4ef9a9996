// Rows a load replays onto a restored graph in the background (deferReplay in graph-restore.ts):
// the writes after the last save, found at start after kill -9. Adding a point costs hnswlib
// ~160 us at 50k x 128, so 8,000 of them held the shard's load, and /readyz, for 1.3 s. Until a
// slot is added its row waits here (read once from LMDB), searches score those rows exactly beside
// the graph's hits, and the shard saves no graph (its manifest would claim rows the graph lacks);
// catchUp() finishes at once where a save must happen (shutdown, snapshot). The graph is the
// vector's serving one, float32 (HnswIndex) or over codes (QuantizedGraph) alike.
//
// Invariant: a slot held here is not in the serving graph (a row it held before is marked deleted
// there); a write to the slot takes it out of here (written) and goes to the graph itself.

/** Replayed slots added to a restored graph per turn (about 10 ms of hnswlib inserts at 50k x 128). */
const CATCH_UP_CHUNK = 64;

/** What rows are added to: the vector's serving graph. */
export interface ReplayTarget {
  add(slot: number, row: Float32Array): unknown;
  remove(slot: number): void;
}

export class BehindRows {
  readonly #target: () => ReplayTarget | null;
  #rows: Map<number, Float32Array> | null = null;
  /** Resolves when no row is held any more (null: none held). */
  #caughtUp: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Set by stop: background steps end (catchUp() still finishes). */
  #stopped = false;

  /** `target`: the serving graph at the time a row is added (null: none, rows wait). */
  constructor(target: () => ReplayTarget | null) {
    this.#target = target;
  }

  get size(): number {
    return this.#rows?.size ?? 0;
  }

  get(slot: number): Float32Array | undefined {
    return this.#rows?.get(slot);
  }

  /** A write reached the slot: from now on it goes to the graph directly. */
  written(slot: number): void {
    if (this.#rows?.delete(slot) === true && this.#rows.size === 0) this.#settle();
  }

  /** Holds a row to add later (its slot is not in the graph meanwhile). */
  hold(slot: number, row: Float32Array): void {
    (this.#rows ??= new Map()).set(slot, row);
  }

  /** Adds the held rows in the background, CATCH_UP_CHUNK per turn, between which requests run. */
  start(): void {
    if (this.size === 0 || this.#caughtUp !== null) return;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#caughtUp = { promise, resolve };
    const step = (): void => {
      // No graph serving (a rebuild replaces it): the rows wait; the new graph is built from them.
      if (this.#stopped || this.size === 0 || this.#target() === null) return;
      this.#add(CATCH_UP_CHUNK);
      if (this.size > 0) setImmediate(step);
    };
    setImmediate(step);
  }

  /** Resolves once every held row is in the graph. */
  caughtUp(): Promise<void> {
    return this.#caughtUp?.promise ?? Promise.resolve();
  }

  /** Adds every held row now (before a save: the graph must hold what its manifest claims). */
  catchUp(): void {
    this.#add(Number.POSITIVE_INFINITY);
  }

  /** Forgets every held row: a graph built from every present row holds them already. */
  clear(): void {
    if (this.#rows === null) return;
    this.#rows.clear();
    this.#settle();
  }

  stop(): void {
    this.#stopped = true;
  }

  /** Each held row that `accept` lets through (searches score them exactly). */
  forEach(accept: (slot: number) => boolean, each: (slot: number, row: Float32Array) => void): void {
    if (this.#rows === null) return;
    for (const [slot, row] of this.#rows) if (accept(slot)) each(slot, row);
  }

  #add(max: number): void {
    const rows = this.#rows;
    const target = this.#target();
    if (rows === null || target === null) return;
    let n = 0;
    for (const [slot, row] of rows) {
      if (n++ >= max) break;
      rows.delete(slot);
      target.add(slot, row);
    }
    if (rows.size === 0) this.#settle();
  }

  #settle(): void {
    this.#rows = null;
    const done = this.#caughtUp;
    this.#caughtUp = null;
    done?.resolve();
  }
}
