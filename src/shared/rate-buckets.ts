// The layout of strict mode's shared rate-limit buckets (src/workers/service/rate-limits.ts):
// the dispatcher allocates one buffer for the node and hands it to every worker.

/** Collections a node keeps buckets for at once (by id modulo this). */
export const RATE_SLOTS = 1024;

/** An Int32 lock per slot and kind, then Float64 owner, limit, tokens and last refill (ms) per slot and kind. */
export const RATE_BUCKET_BYTES = RATE_SLOTS * 2 * 4 + RATE_SLOTS * 2 * 4 * 8;
