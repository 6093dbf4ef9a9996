// Which worker coordinates a handed-off request: one with the most room. Room is read from each
// worker's event-loop utilization (src/workers/busy-meter.ts), so that an idle server coordinates
// on a worker holding the collection's shards (no message hop), and a shard owner saturated by
// searches leaves parsing and serializing to a sibling with spare time. Workers about as free as
// the freest (within TIE) take turns, so requests spread over the copies of a replicated shard.

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
