// Which worker coordinates a handed-off request: the one with the most room. Room is read from
// each worker's event-loop utilization (src/workers/busy-meter.ts), so that an idle server
// coordinates on the worker holding the collection's shard (no message hop), and a shard owner
// saturated by searches leaves parsing and serializing to a sibling with spare time. Requests
// stay with the last coordinator while it is about as free as any other: fewer threads woken,
// and more requests to each per message (the channels batch per event-loop turn).

/** In per-mille of event-loop utilization: what a hop to the shard's worker costs (a message each way). */
export const HOP_COST = 100;
/** ... and how much freer another worker must be to take over from the last coordinator. */
export const STICKY = 50;

export interface CoordinatorView {
  /** false while the thread is being replaced */
  open: boolean;
  /** event-loop utilization, per-mille (1000 when its reading is stale) */
  busy: number;
}

/**
 * The index of the worker to coordinate, or -1 when none is open. `owners` are the workers
 * holding a copy of the collection's shards (null: unknown, all alike); `last` is the previous
 * choice, which ties keep.
 */
export function pickCoordinator(workers: readonly CoordinatorView[], owners: readonly number[] | null, last: number): number {
  const n = workers.length;
  let best = -1;
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const w = (last + i) % n;
    const v = workers[w]!;
    if (!v.open) continue;
    const score = v.busy + (owners === null || owners.includes(w) ? 0 : HOP_COST) - (w === last ? STICKY : 0);
    if (score < least) {
      least = score;
      best = w;
    }
  }
  return best;
}
