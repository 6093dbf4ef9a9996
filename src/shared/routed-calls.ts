// The channel between a coordinating worker and the main thread's router for the shard calls of a
// write to a collection that keeps copies (docs/request-path.md, "Where a request is
// coordinated"): the worker coordinates the request (parses, checks, splits it by shard, merges,
// answers), the main thread's router writes each shard's copies in the one order it receives the
// calls in.

import type { BatchedWire } from './batched-port.js';
import { QuiverError } from './errors.js';
import type { RoutedCall } from './coordination.js';
import type { WorkerReply } from './protocol.js';

/** What a call or answer that cannot be posted (not cloneable) becomes: an error, never a lost call. */
export const ROUTED_UNSENDABLE = {
  request: (why: string): Error => QuiverError.internal(`shard call to the main thread's router could not be sent: ${why}`),
  reply: (why: string): WorkerReply => ({ ok: false, error: QuiverError.internal(`answer could not be sent: ${why}`).toWire() }),
};

/** RoutedCall in, WorkerReply back. */
export const ROUTED_CALL_WIRE: BatchedWire<RoutedCall, WorkerReply> = {
  request: (id, req) => ({ id, req }),
  reply: (id, reply) => ({ id, reply }),
};
