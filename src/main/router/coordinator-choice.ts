// Which worker coordinates a handed-off request: the one with the most room. Room is read from
// each worker's event-loop utilization (src/workers/busy-meter.ts), so that an idle server
// coordinates on the worker holding the collection's shard (no message hop), and a shard owner
// saturated by searches leaves parsing and serializing to a sibling with spare time.

/** In per-mille of event-loop utilization: what a hop to the shard's worker costs (a message each way). */
export const HOP_COST = 100;
/** ... and what each hand-off a worker already holds counts (readings are up to 20 ms old). */
export const IN_FLIGHT_COST = 5;

export interface CoordinatorView {
  /** false while the thread is being replaced */
  open: boolean;
  /** event-loop utilization, per-mille (1000 when its reading is stale) */
  busy: number;
  /** hand-offs in flight to it */
  load: number;
}

/**
 * The index of the worker to coordinate, or -1 when none is open. `owners` are the workers
 * holding a copy of the collection's shards (null: unknown, all alike). Ties go to the first in
 * turn from `start`.
 */
export function pickCoordinator(workers: readonly CoordinatorView[], owners: readonly number[] | null, start: number): number {
  const n = workers.length;
  let best = -1;
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const w = (start + i) % n;
    const v = workers[w]!;
    if (!v.open) continue;
    const score = v.busy + v.load * IN_FLIGHT_COST + (owners === null || owners.includes(w) ? 0 : HOP_COST);
    if (score < least) {
      least = score;
      best = w;
    }
  }
  return best;
}
