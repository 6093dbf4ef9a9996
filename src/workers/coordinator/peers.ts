// The coordinating worker's ShardDispatcher: shards this worker owns are called in-process (the
// request cloned, as the in-process dispatcher does, so neither side keeps the other's objects);
// the others go over a direct MessageChannel to the sibling that owns them, never through the
// main thread. The same channels carry the siblings' requests for this worker's shards. The
// messages of one event-loop turn to one sibling, requests and answers together, travel as one
// postMessage (PeerBatch, through a BatchedPort), in order: under load a busy shard owner answers
// many requests per turn, and each postMessage costs it more than the answer's own serialization.
//
// Invariants: every request sent on a channel is answered or rejected: when a sibling thread
// ends, its channel closes and the requests waiting on it fail with ShardUnavailable (a 503),
// never hang. A replaced sibling's new channel replaces the old one (attach).

import { BatchedPort, type BatchedWire } from '../../shared/batched-port.js';
import { QuiverError } from '../../shared/errors.js';
import type { Op, RequestOf, ResultOf, ShardRequest, WorkerReply } from '../../shared/protocol.js';
import type { PeerMessage, PeerPort } from '../../shared/coordination.js';
import type { ShardDispatcher } from '../../shared/dispatch.js';

/** Serves one shard request of this worker (the entry's handler, failpoints included). */
export type ServeShard = (req: ShardRequest) => Promise<WorkerReply>;

type Peer = BatchedPort<ShardRequest, WorkerReply>;

/** protocol.ts's sibling messages (PeerBatch): both ways on one port, each tagged with its kind. */
const PEER_WIRE: BatchedWire<ShardRequest, WorkerReply> = {
  request: (id, req) => ({ kind: 'req', id, req }) satisfies PeerMessage,
  reply: (id, reply) => ({ kind: 'res', id, reply }) satisfies PeerMessage,
};

/** A message that cannot be cloned fails alone; the rest of its batch still leaves. */
const UNSENDABLE = {
  request: (why: string): Error => QuiverError.internal(`request to a sibling worker could not be sent: ${why}`),
  reply: (why: string): WorkerReply => ({ ok: false, error: QuiverError.internal(`answer could not be sent: ${why}`).toWire() }),
};

export class PeerDispatcher implements ShardDispatcher {
  readonly workerCount: number;
  readonly #self: number;
  readonly #serve: ServeShard;
  readonly #peers = new Map<number, Peer>();

  constructor(self: number, workerCount: number, serve: ServeShard) {
    this.#self = self;
    this.workerCount = workerCount;
    this.#serve = serve;
  }

  /** Takes new channels to siblings, replacing older ones to the same sibling. */
  attach(peers: readonly PeerPort[]): void {
    for (const { worker, port } of peers) {
      const old = this.#peers.get(worker);
      if (old !== undefined) this.#drop(worker, old, 'its thread was replaced while serving this request');
      // Requests and answers of one turn share one batch, in order.
      const peer: Peer = new BatchedPort(port, { wire: PEER_WIRE, serve: this.#serve, unsendable: UNSENDABLE });
      this.#peers.set(worker, peer);
      port.on('close', () => this.#drop(worker, peer, 'its thread ended while serving this request'));
    }
  }

  #drop(worker: number, peer: Peer, why: string): void {
    if (this.#peers.get(worker) === peer) this.#peers.delete(worker);
    // Worded as the main thread's dispatcher words a worker lost under a task.
    peer.close(new QuiverError('ShardUnavailable', `Worker ${worker} failed: ${why}; its shards are being reloaded`));
  }

  async call<O extends Op>(worker: number, req: RequestOf<O>, transfer?: ArrayBuffer[]): Promise<ResultOf<O>> {
    const moved = transfer !== undefined && transfer.length > 0 ? transfer : undefined;
    let reply: WorkerReply;
    if (worker === this.#self) {
      reply = await this.#serve(structuredClone(req, moved === undefined ? undefined : { transfer: moved }));
      if (reply.ok) return structuredClone(reply.result) as ResultOf<O>;
    } else {
      const peer = this.#peers.get(worker);
      if (peer === undefined) throw new QuiverError('ShardUnavailable', `Worker ${worker} failed: its thread is being replaced and its shards reloaded`);
      reply = await peer.send(req, moved);
      // The worker answered the request's op with that op's result.
      if (reply.ok) return reply.result as ResultOf<O>;
    }
    throw QuiverError.fromWire(reply.error);
  }

  async close(): Promise<void> {
    for (const [w, p] of this.#peers) this.#drop(w, p, 'the server is closing');
  }
}
