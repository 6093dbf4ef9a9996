// Which worker coordinates a handed-off request: one with the most room. Room is read from each
// worker's event-loop utilization (src/workers/busy-meter.ts), so that an idle server coordinates
// on a worker holding the collection's shards (no message hop), and a shard owner saturated by
// searches leaves parsing and serializing to a sibling with spare time. Workers about as free as
// the freest (within TIE) take turns, so requests spread over the copies of a replicated shard;
// a turn lasts up to `turnLength` requests in a row (CoordinatorTurns), so that batches stay full.

/** In per-mille of event-loop utilization: what a hop to the shard's worker costs (a message each way). */
export const HOP_COST = 100;
/** ... and how close to the freest a worker must be to take its turn. */
export const TIE = 50;

export interface CoordinatorView {
  /** false while the thread is being replaced */
  open: boolean;
  /** event-loop utilization, per-mille (1000 when its reading is stale) */
  busy: number;
}

/**
 * The index of the worker to coordinate, or -1 when none is open. `owners` are the workers
 * holding a copy of the collection's shards (null: unknown, all alike). Among the workers within
 * TIE of the best, the first from `next` (the turn) is taken.
 */
export function pickCoordinator(workers: readonly CoordinatorView[], owners: readonly number[] | null, next: number): number {
  const n = workers.length;
  const score = (w: number): number => {
    const v = workers[w]!;
    return v.open ? v.busy + (owners === null || owners.includes(w) ? 0 : HOP_COST) : Number.POSITIVE_INFINITY;
  };
  let least = Number.POSITIVE_INFINITY;
  for (let w = 0; w < n; w++) least = Math.min(least, score(w));
  if (least === Number.POSITIVE_INFINITY) return -1;
  for (let i = 0; i < n; i++) {
    const w = (next + i) % n;
    if (score(w) <= least + TIE) return w;
  }
  return -1;
}

/**
 * Whose turn it is. A worker keeps the turn while it stays among the freest, for at most
 * `turnLength` requests in a row; then the turn passes on. Spread one request at a time over many
 * workers, every request would cost the main thread a message each way; in runs, the hand-off and
 * answer batches fill.
 */
export class CoordinatorTurns {
  #next = 0;
  #streak = 0;
  constructor(
    readonly workerCount: number,
    readonly turnLength: number,
  ) {}

  /** The worker to coordinate now (pickCoordinator from the turn), or -1 when none is open. */
  pick(workers: readonly CoordinatorView[], owners: readonly number[] | null): number {
    const best = pickCoordinator(workers, owners, this.#next);
    if (best < 0) return -1;
    if (best !== this.#next) this.#streak = 0;
    if (++this.#streak >= this.turnLength) {
      this.#streak = 0;
      this.#next = (best + 1) % this.workerCount;
    } else this.#next = best;
    return best;
  }

  /** Where the next turn starts: also the fallback when no worker is open. */
  get next(): number {
    return this.#next;
  }
}
