// The main thread's direct channel to one coordinating worker, for handed-off requests: a
// MessagePort of its own rather than a piscina task per request, so that the requests of one
// event-loop turn travel as one message (their bodies moved, not cloned), and the worker's
// answers come back batched the same way. piscina still carries everything else.
//
// Invariants: every request sent is answered or rejected: when the worker's thread ends, the
// channel closes and the requests waiting on it fail with ShardUnavailable (a 503), never hang.
// A closed channel takes no new requests (the dispatcher sends them to another worker).

import type { MessagePort } from 'node:worker_threads';
import { QuiverError } from '../../shared/errors.js';
import { MAX_BATCH, type AnyHandoffReply, type AnyHandoffRequest, type HandoffBatch, type HandoffReplyBatch, type HandoffReplyOf } from '../../shared/protocol.js';

interface Waiting {
  resolve: (reply: AnyHandoffReply) => void;
  reject: (err: QuiverError) => void;
}

export class HandoffChannel {
  readonly #worker: number;
  readonly #port: MessagePort;
  readonly #waiting = new Map<number, Waiting>();
  #outbox: HandoffBatch = [];
  #transfer: ArrayBuffer[] = [];
  #flushing = false;
  #nextId = 1;
  #closed = false;
  /** Why the thread ended, when piscina could tell (the thread's uncaught error). */
  reason: string | null = null;

  constructor(worker: number, port: MessagePort) {
    this.#worker = worker;
    this.#port = port;
    port.on('message', (replies: HandoffReplyBatch) => {
      for (const { id, reply } of replies) {
        const w = this.#waiting.get(id);
        this.#waiting.delete(id);
        w?.resolve(reply);
      }
    });
    // The thread's error event may come just after its ports close: wait a turn for it.
    port.on('close', () => setImmediate(() => this.close()));
    port.unref();
  }

  get open(): boolean {
    return !this.#closed;
  }

  /** Requests in flight: the dispatcher sends the next one to the least busy worker. */
  get load(): number {
    return this.#waiting.size;
  }

  /** A REST or gRPC hand-off; the coordinator answers each with its kind's reply. */
  send<R extends AnyHandoffRequest>(req: R): Promise<HandoffReplyOf<R>> {
    if (this.#closed) return Promise.reject(this.#lost());
    let body = req.body;
    // Moved, not cloned: a body that is a view into a larger (pooled) buffer is copied out first.
    if (body !== null && (body.byteOffset !== 0 || body.byteLength !== body.buffer.byteLength || !(body.buffer instanceof ArrayBuffer))) body = body.slice();
    if (body !== null) this.#transfer.push(body.buffer as ArrayBuffer);
    const id = this.#nextId++;
    // A copy only where the body was non-null, so the request keeps its kind's body type.
    this.#outbox.push({ id, req: body === req.body ? req : ({ ...req, body } as R) });
    if (!this.#flushing) {
      this.#flushing = true;
      // One message for the requests that arrived in this turn of the event loop...
      setImmediate(() => this.#flush());
    } else if (this.#outbox.length >= MAX_BATCH) {
      // ... at most MAX_BATCH of them: the worker starts on a full batch while this thread reads
      // the next requests (one batch of a whole turn would move through the threads as a convoy).
      this.#flush();
      this.#flushing = true;
    }
    return new Promise<HandoffReplyOf<R>>((resolve, reject) => this.#waiting.set(id, { resolve: resolve as (reply: AnyHandoffReply) => void, reject }));
  }

  #flush(): void {
    this.#flushing = false;
    const batch = this.#outbox;
    const transfer = this.#transfer;
    this.#outbox = [];
    this.#transfer = [];
    if (batch.length === 0 || this.#closed) return;
    this.#port.postMessage(batch, transfer);
  }

  #lost(): QuiverError {
    return new QuiverError('ShardUnavailable', `Worker ${this.#worker} failed: ${this.reason ?? 'its thread ended while serving this request'}`);
  }

  /** Fails every request waiting here; used when the thread ended and at shutdown. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#port.close();
    const err = this.#lost();
    for (const w of this.#waiting.values()) w.reject(err);
    this.#waiting.clear();
    this.#outbox = [];
    this.#transfer = [];
  }
}
