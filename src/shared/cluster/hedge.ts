// When a read across nodes is hedged (docs/cluster.md section 6: "a replica slower than a hedge
// deadline is retried on another"). The deadline is learned, as "The Tail at Scale" (Dean and
// Barroso) proposes: a read not answered by the 95th percentile of recent reads of its kind is
// sent to a second replica too, which costs about 5% more reads while cutting the tail a stalled
// replica (paused, in a GC, swapping, behind a busy worker) would add. Invariants:
// - the estimate is this node's, across replicas, per read kind (the worker op, and whether it
//   reads at the log's end, which waits for the replica to catch up, and whether it is first
//   sent to this node's own replica, which answers without a hop): never per peer, since a slow
//   peer would then earn itself a later hedge;
// - only answered reads are counted (a hedged loser is never heard from);
// - the deadline never exceeds `ceilingMs` (cluster.hedge_ms), which also stands until a kind has
//   MIN_SAMPLES answers, and never falls below FLOOR_MS, under which a hedge would fire on
//   scheduling noise of a busy machine rather than on a slow replica.

/** Answers kept per kind: enough for a 95th percentile, few enough to follow a change of load. */
const WINDOW = 128;
/** Answers needed before the percentile replaces the ceiling. */
const MIN_SAMPLES = 20;
/** Lowest deadline (ms): event-loop and scheduler jitter on a loaded 2-core machine reach several ms. */
export const FLOOR_MS = 10;
const PERCENTILE = 0.95;

/** Answers between two recomputations of a kind's percentile (sorting 128 numbers per read is waste). */
const RESORT_EVERY = 8;

/** A ring of the last WINDOW latencies of one kind, with its percentile as last computed. */
class Window {
  readonly #ms = new Float64Array(WINDOW);
  #next = 0;
  #count = 0;
  #percentile: number | null = null;
  #sinceSort = 0;

  add(ms: number): void {
    this.#ms[this.#next] = ms;
    this.#next = (this.#next + 1) % WINDOW;
    if (this.#count < WINDOW) this.#count++;
    this.#sinceSort++;
  }

  get count(): number {
    return this.#count;
  }

  percentile(): number {
    if (this.#percentile === null || this.#sinceSort >= RESORT_EVERY) {
      const sorted = this.#ms.slice(0, this.#count).sort();
      this.#percentile = sorted[Math.min(sorted.length - 1, Math.floor(PERCENTILE * sorted.length))]!;
      this.#sinceSort = 0;
    }
    return this.#percentile;
  }
}

export class HedgeDeadlines {
  readonly #ceilingMs: number;
  readonly #kinds = new Map<string, Window>();

  /** `ceilingMs` 0: reads are never hedged. */
  constructor(ceilingMs: number) {
    this.#ceilingMs = ceilingMs;
  }

  /** How long a read of `kind` waits for its replica before a second one is asked; null: never. */
  deadline(kind: string): number | null {
    if (this.#ceilingMs <= 0) return null;
    const w = this.#kinds.get(kind);
    if (w === undefined || w.count < MIN_SAMPLES) return this.#ceilingMs;
    return Math.min(this.#ceilingMs, Math.max(FLOOR_MS, Math.ceil(w.percentile())));
  }

  /** A read of `kind` answered `ms` after it was sent to the replica that answered. */
  answered(kind: string, ms: number): void {
    let w = this.#kinds.get(kind);
    if (w === undefined) this.#kinds.set(kind, (w = new Window()));
    w.add(ms);
  }
}
