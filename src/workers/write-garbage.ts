// A worker thread's garbage from writes, collected before it piles up (issue 14: RssAnon read
// right after an ingest). As coordinator, each upsert body leaves garbage several times its size:
// the body's buffer (moved from the main thread), its text decoded (above V8's large-object size,
// so old space, freed only by a full collection), and the parsed JSON, which outlives the young
// generation while the write waits for its commit. As shard owner, each batch's vector columns
// (moved from the coordinator) are held until the commit, so they too are promoted and wait for
// a full collection. V8 runs one when the old space or the external memory has grown by tens of
// MiB, so an ingest's memory was a sawtooth whose top a reading could hit (measured at 100k x 128
// on 2 workers, the shard owner's array buffers at 56 MiB at the end of an ingest, 19 MiB after a
// collection).
//
// Invariant: a collection runs at most once per `budgetBytes` charged, in a turn of its own
// (setImmediate), never inside a request; only writes are charged, once they are answered (their
// garbage is dead by then), so a search load never pays for it.

export class WriteGarbage {
  readonly #budget: number;
  readonly #collect: () => void;
  #charged = 0;
  #scheduled = false;
  /** Collections run so far. */
  collections = 0;

  constructor(budgetBytes: number, collect: () => void) {
    this.#budget = budgetBytes;
    this.#collect = collect;
  }

  /** A write of `bytes` (its body, or its vector columns) was answered: collects in a later turn once the budget is spent. */
  charge(bytes: number): void {
    this.#charged += bytes;
    if (this.#charged < this.#budget || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#charged = 0;
      this.collections++;
      this.#collect();
    });
  }
}
