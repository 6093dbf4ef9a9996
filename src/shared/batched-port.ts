// Requests and answers over one MessagePort, batched: the messages queued in one event-loop turn
// leave as one postMessage (at most MAX_BATCH each: a full batch leaves at once), their transfer
// lists with them, so bodies are moved, not cloned; answers come back batched the same way and
// are matched to their requests by id, in any order. A port may be a client (send), a server
// (serve) or both at once, its requests and answers then sharing one queue, in order.
//
// Invariants: every request sent is answered or rejected: close() rejects each one waiting with
// the error its owner gives (owners call it when the port closes), and a closed port takes no
// new request and sends nothing more. Messages leave in the order they were queued.

import type { MessagePort } from 'node:worker_threads';
import { MAX_BATCH } from './coordination.js';

/** A request as it travels, with the id its answer comes back under. */
export interface BatchedRequest<Req> {
  id: number;
  req: Req;
}

/** The answer to the request sent under `id`. */
export interface BatchedReply<Rep> {
  id: number;
  reply: Rep;
}

/**
 * The messages' shape on the wire (protocol.ts types each channel's). A format may add fields (a
 * kind tag), but keeps `id` and `req` or `reply`: a message with `reply` is an answer.
 */
export interface BatchedWire<Req, Rep> {
  request(id: number, req: Req): BatchedRequest<Req>;
  reply(id: number, reply: Rep): BatchedReply<Rep>;
}

export interface BatchedPortOptions<Req, Rep> {
  wire: BatchedWire<Req, Rep>;
  /**
   * Answers each request that arrives; its answer joins the current turn's batch. Left out on a
   * port that only sends. A rejection is not caught here: the handler turns errors into replies.
   */
  serve?: (req: Req) => Promise<Rep>;
  /**
   * Which message schedules the end-of-turn flush. 'each-batch' (the default): the first of each
   * batch, so a batch begun after a full one left mid-turn gets a flush of its own; 'one-pending':
   * the first while none is scheduled, so such a batch leaves with the flush already scheduled.
   */
  endOfTurn?: 'each-batch' | 'one-pending';
  /**
   * A batch that cannot be posted (a message that cannot be cloned) is retried message by message,
   * cloned: a request that still fails is rejected with `request(why)`, an answer is replaced by
   * `reply(why)`. Left out, the postMessage error propagates (from send(), or uncaught at the
   * end of the turn).
   */
  unsendable?: { request(why: string): Error; reply(why: string): Rep };
  /** The buffers an answer owns outright, moved with it rather than copied (left out: none). */
  transferOf?: (reply: Rep) => readonly ArrayBuffer[];
}

interface Waiting<Rep> {
  resolve: (reply: Rep) => void;
  reject: (err: Error) => void;
}

type Message<Req, Rep> = BatchedRequest<Req> | BatchedReply<Rep>;

export class BatchedPort<Req, Rep> {
  readonly #port: MessagePort;
  readonly #wire: BatchedWire<Req, Rep>;
  readonly #onePending: boolean;
  readonly #unsendable: BatchedPortOptions<Req, Rep>['unsendable'];
  readonly #waiting = new Map<number, Waiting<Rep>>();
  #outbox: Message<Req, Rep>[] = [];
  #transfer: ArrayBuffer[] = [];
  /** An end-of-turn flush is scheduled (read in 'one-pending' mode only). */
  #flushScheduled = false;
  #nextId = 1;
  #closedBy: Error | null = null;

  constructor(port: MessagePort, options: BatchedPortOptions<Req, Rep>) {
    this.#port = port;
    this.#wire = options.wire;
    this.#onePending = options.endOfTurn === 'one-pending';
    this.#unsendable = options.unsendable;
    const serve = options.serve;
    const transferOf = options.transferOf;
    port.on('message', (batch: Message<Req, Rep>[]) => {
      for (const msg of batch) {
        if ('reply' in msg) {
          const w = this.#waiting.get(msg.id);
          this.#waiting.delete(msg.id);
          w?.resolve(msg.reply);
        } else if (serve !== undefined) {
          const id = msg.id;
          // A handler that rejects (it should answer errors as replies) answers as unsendable does,
          // or not at all: never an unhandled rejection, which would end the thread.
          void serve(msg.req).then(
            (reply) => this.#queue(this.#wire.reply(id, reply), transferOf?.(reply)),
            (err: unknown) => {
              if (this.#unsendable !== undefined) this.#queue(this.#wire.reply(id, this.#unsendable.reply(err instanceof Error ? err.message : String(err))));
            },
          );
        }
      }
    });
    // The thread's life is piscina's to decide, not this channel's.
    port.unref();
  }

  get open(): boolean {
    return this.#closedBy === null;
  }

  /** Requests waiting for their answer. */
  get load(): number {
    return this.#waiting.size;
  }

  /** Queues `req` for this turn's batch; `transfer` is moved with it (those buffers are detached here once it leaves). */
  send(req: Req, transfer?: readonly ArrayBuffer[]): Promise<Rep> {
    if (this.#closedBy !== null) return Promise.reject(this.#closedBy);
    const id = this.#nextId++;
    return new Promise<Rep>((resolve, reject) => {
      // Waiting before it is queued: a batch that cannot be posted rejects it (unsendable).
      this.#waiting.set(id, { resolve, reject });
      try {
        this.#queue(this.#wire.request(id, req), transfer);
      } catch (err) {
        this.#waiting.delete(id);
        throw err;
      }
    });
  }

  /** Rejects every request waiting with `err` and closes the port; later calls do nothing. */
  close(err: Error): void {
    if (this.#closedBy !== null) return;
    this.#closedBy = err;
    this.#port.close();
    for (const w of this.#waiting.values()) w.reject(err);
    this.#waiting.clear();
    this.#outbox = [];
    this.#transfer = [];
  }

  #queue(msg: Message<Req, Rep>, transfer?: readonly ArrayBuffer[]): void {
    // Closed: nobody reads the other end (an answer finished late goes nowhere).
    if (this.#closedBy !== null) return;
    if (this.#onePending ? !this.#flushScheduled : this.#outbox.length === 0) {
      this.#flushScheduled = true;
      // One message for the messages queued in this turn of the event loop...
      setImmediate(this.#endOfTurn);
    }
    this.#outbox.push(msg);
    if (transfer !== undefined) this.#transfer.push(...transfer);
    // ... at most MAX_BATCH of them: the other thread starts on a full batch while this one
    // queues the next (one batch of a whole turn would move through the threads as a convoy).
    if (this.#outbox.length >= MAX_BATCH) this.#flush();
  }

  readonly #endOfTurn = (): void => {
    this.#flushScheduled = false;
    this.#flush();
  };

  #flush(): void {
    if (this.#outbox.length === 0) return;
    const batch = this.#outbox;
    // A buffer listed twice (requests sharing it) would fail the whole postMessage.
    const transfer = this.#transfer.length > 1 ? [...new Set(this.#transfer)] : this.#transfer;
    this.#outbox = [];
    this.#transfer = [];
    if (this.#unsendable === undefined) {
      this.#port.postMessage(batch, transfer);
      return;
    }
    try {
      this.#port.postMessage(batch, transfer);
    } catch (err) {
      // Only the messages that cannot be cloned fail; the others leave one by one.
      for (const msg of batch) this.#sendAlone(msg, err, this.#unsendable);
    }
  }

  #sendAlone(msg: Message<Req, Rep>, batchError: unknown, unsendable: NonNullable<BatchedPortOptions<Req, Rep>['unsendable']>): void {
    try {
      this.#port.postMessage([msg]);
      return;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(batchError);
      if (!('reply' in msg)) {
        const w = this.#waiting.get(msg.id);
        this.#waiting.delete(msg.id);
        w?.reject(unsendable.request(why));
        return;
      }
      try {
        this.#port.postMessage([this.#wire.reply(msg.id, unsendable.reply(why))]);
      } catch {
        /* not even the error can be sent: the port is gone, nobody waits */
      }
    }
  }
}
