// Strict mode's read_rate_limit and write_rate_limit: Qdrant's token buckets, `limit` tokens a
// minute, refilled evenly and full at first. One bucket per collection and kind for the whole
// node, shared by the coordinating workers through a SharedArrayBuffer the dispatcher hands each
// of them (WorkerInit.rateBuckets; a private one where there are no worker threads), each slot
// behind a spin lock: a request takes its tokens in one short critical section whichever worker
// coordinates it. Slots are by collection id modulo SLOTS; a slot records its collection and
// limit, and starts full again for another (past SLOTS collections two may meet there, each
// reset in turn: a limit then holds per collection only as long as they do not alternate).

import { QuiverError } from '../../shared/errors.js';
import { RATE_BUCKET_BYTES, RATE_SLOTS } from '../../shared/rate-buckets.js';

let locks: Int32Array;
let data: Float64Array;

/** The node's buckets, from WorkerInit.rateBuckets (entry.ts), or a private set. */
export function setRateBuckets(sab: SharedArrayBuffer | ArrayBuffer): void {
  locks = new Int32Array(sab, 0, RATE_SLOTS * 2);
  data = new Float64Array(sab, RATE_SLOTS * 2 * 4, RATE_SLOTS * 2 * 4);
}
setRateBuckets(new SharedArrayBuffer(RATE_BUCKET_BYTES));

/** A request refused by a rate limit: 429, with the seconds to wait when waiting can help. */
const rateLimited = (message: string, retryAfterSeconds?: number): QuiverError => new QuiverError('RateLimited', message, retryAfterSeconds);

/** Takes `cost` tokens from the collection's `kind` bucket of `limit` a minute, or throws RateLimited (429). */
export function takeTokens(collection: number, kind: 'read' | 'write', limit: number, cost: number, now = Date.now()): void {
  const Kind = kind === 'read' ? 'Read' : 'Write';
  if (cost > limit) throw rateLimited(`Rate limiting exceeded: ${Kind} rate limit exceeded, request larger than rate limiter capacity, please try to split your request`);
  const slot = (collection % RATE_SLOTS) * 2 + (kind === 'write' ? 1 : 0);
  const at = slot * 4;
  while (Atomics.compareExchange(locks, slot, 0, 1) !== 0) {
    // Another worker holds it for a few arithmetic steps.
  }
  try {
    if (data[at] !== collection || data[at + 1] !== limit) {
      data[at] = collection;
      data[at + 1] = limit;
      data[at + 2] = limit;
      data[at + 3] = now;
    }
    const tokens = Math.min(limit, data[at + 2]! + ((now - data[at + 3]!) * limit) / 60_000);
    data[at + 3] = now;
    if (tokens < cost) {
      data[at + 2] = tokens;
      const seconds = ((cost - tokens) * 60) / limit;
      throw rateLimited(
        `Rate limiting exceeded: ${Kind} rate limit exceeded: Operation requires ${cost} tokens but only ${tokens.toFixed(1)} were available. Retry after ${Math.ceil(seconds)}s`,
        Math.ceil(seconds),
      );
    }
    data[at + 2] = tokens - cost;
  } finally {
    Atomics.store(locks, slot, 0);
  }
}
