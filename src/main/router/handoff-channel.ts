// The main thread's direct channel to one coordinating worker, for handed-off requests: a
// MessagePort of its own rather than a piscina task per request, so that the requests of one
// event-loop turn travel as one message (their bodies moved, not cloned), and the worker's
// answers come back batched the same way (BatchedPort). piscina still carries everything else.
//
// Invariants: every request sent is answered or rejected: when the worker's thread ends, the
// channel closes and the requests waiting on it fail with ShardUnavailable (a 503), never hang.
// A closed channel takes no new requests (the dispatcher sends them to another worker).

import type { MessagePort } from 'node:worker_threads';
import { BatchedPort, type BatchedWire } from '../../shared/batched-port.js';
import { QuiverError } from '../../shared/errors.js';
import type { AnyHandoffReply, AnyHandoffRequest, HandoffBatch, HandoffReplyBatch, HandoffReplyOf } from '../../shared/coordination.js';

/** protocol.ts's hand-off messages: HandoffBatch out, HandoffReplyBatch back. */
const HANDOFF_WIRE: BatchedWire<AnyHandoffRequest, AnyHandoffReply> = {
  request: (id, req) => ({ id, req }) satisfies HandoffBatch[number],
  reply: (id, reply) => ({ id, reply }) satisfies HandoffReplyBatch[number],
};

export class HandoffChannel {
  readonly #worker: number;
  readonly #port: BatchedPort<AnyHandoffRequest, AnyHandoffReply>;
  /** Why the thread ended, when piscina could tell (the thread's uncaught error). */
  reason: string | null = null;

  constructor(worker: number, port: MessagePort) {
    this.#worker = worker;
    // One end-of-turn flush at a time: a batch begun after a full one left rides the flush
    // already scheduled (the other channels schedule one per batch).
    this.#port = new BatchedPort(port, { wire: HANDOFF_WIRE, endOfTurn: 'one-pending' });
    // The thread's error event may come just after its ports close: wait a turn for it.
    port.on('close', () => setImmediate(() => this.close()));
  }

  get open(): boolean {
    return this.#port.open;
  }

  /** Requests in flight: the dispatcher sends the next one to the least busy worker. */
  get load(): number {
    return this.#port.load;
  }

  /** A REST or gRPC hand-off; the coordinator answers each with its kind's reply. */
  send<R extends AnyHandoffRequest>(req: R): Promise<HandoffReplyOf<R>> {
    // Worded with the reason known now, which may have come after the close.
    if (!this.#port.open) return Promise.reject(this.#lost());
    let body = req.body;
    // Moved, not cloned: a body that is a view into a larger (pooled) buffer is copied out first.
    if (body !== null && (body.byteOffset !== 0 || body.byteLength !== body.buffer.byteLength || !(body.buffer instanceof ArrayBuffer))) body = body.slice();
    // A copy only where the body was non-null, so the request keeps its kind's body type.
    const moved = body === req.body ? req : ({ ...req, body } as R);
    // The coordinator answers a request with its kind's reply.
    return this.#port.send(moved, body === null ? undefined : [body.buffer as ArrayBuffer]) as Promise<HandoffReplyOf<R>>;
  }

  #lost(): QuiverError {
    return new QuiverError('ShardUnavailable', `Worker ${this.#worker} failed: ${this.reason ?? 'its thread ended while serving this request'}`);
  }

  /** Fails every request waiting here; used when the thread ended and at shutdown. */
  close(): void {
    if (this.#port.open) this.#port.close(this.#lost());
  }
}
