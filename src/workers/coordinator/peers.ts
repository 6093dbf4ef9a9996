// The coordinating worker's ShardDispatcher: shards this worker owns are called in-process (the
// request cloned, as the in-process dispatcher does, so neither side keeps the other's objects);
// the others go over a direct MessageChannel to the sibling that owns them, never through the
// main thread. The same channels carry the siblings' requests for this worker's shards. The
// messages of one event-loop turn to one sibling travel as one postMessage (PeerBatch), in order:
// under load a busy shard owner answers many requests per turn, and each postMessage costs it
// more than the answer's own serialization.
//
// Invariants: every request sent on a channel is answered or rejected: when a sibling thread
// ends, its channel closes and the requests waiting on it fail with ShardUnavailable (a 503),
// never hang. A replaced sibling's new channel replaces the old one (attach).

import type { MessagePort } from 'node:worker_threads';
import { QuiverError } from '../../shared/errors.js';
import { MAX_BATCH, type Op, type PeerBatch, type PeerMessage, type PeerPort, type RequestOf, type ResultOf, type ShardRequest, type WorkerReply } from '../../shared/protocol.js';
import type { ShardDispatcher } from '../../shared/dispatch.js';

/** Serves one shard request of this worker (the entry's handler, failpoints included). */
export type ServeShard = (req: ShardRequest) => Promise<WorkerReply>;

interface Pending {
  resolve: (reply: WorkerReply) => void;
  reject: (err: QuiverError) => void;
}

class Peer {
  readonly port: MessagePort;
  readonly pending = new Map<number, Pending>();
  #outbox: PeerBatch = [];
  #transfer: ArrayBuffer[] = [];

  constructor(port: MessagePort) {
    this.port = port;
  }

  /** Queues `msg` for this turn's batch to the sibling (sent at once when the batch is full). */
  send(msg: PeerMessage, transfer?: readonly ArrayBuffer[]): void {
    if (this.#outbox.length === 0) setImmediate(() => this.flush());
    this.#outbox.push(msg);
    if (transfer !== undefined) this.#transfer.push(...transfer);
    if (this.#outbox.length >= MAX_BATCH) this.flush();
  }

  flush(): void {
    if (this.#outbox.length === 0) return;
    const batch = this.#outbox;
    const transfer = [...new Set(this.#transfer)];
    this.#outbox = [];
    this.#transfer = [];
    try {
      this.port.postMessage(batch, transfer);
    } catch (err) {
      // A sibling gone meanwhile: its waiting requests are failed by the close handler. Anything
      // else (a message that cannot be cloned) fails just the messages concerned.
      for (const msg of batch) this.#sendAlone(msg, err);
    }
  }

  #sendAlone(msg: PeerMessage, batchError: unknown): void {
    try {
      this.port.postMessage([msg]);
      return;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(batchError);
      if (msg.kind === 'req') {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        p?.reject(QuiverError.internal(`request to a sibling worker could not be sent: ${why}`));
        return;
      }
      const failed: PeerMessage = { kind: 'res', id: msg.id, reply: { ok: false, error: QuiverError.internal(`answer could not be sent: ${why}`).toWire() } };
      try {
        this.port.postMessage([failed]);
      } catch {
        /* closed: nobody waits */
      }
    }
  }
}

export class PeerDispatcher implements ShardDispatcher {
  readonly workerCount: number;
  readonly #self: number;
  readonly #serve: ServeShard;
  readonly #peers = new Map<number, Peer>();
  #nextId = 1;

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
      const peer = new Peer(port);
      this.#peers.set(worker, peer);
      port.on('message', (batch: PeerBatch) => {
        for (const msg of batch) this.#onMessage(peer, msg);
      });
      port.on('close', () => this.#drop(worker, peer, 'its thread ended while serving this request'));
      // The thread's life is piscina's to decide, not this channel's.
      port.unref();
    }
  }

  #onMessage(peer: Peer, msg: PeerMessage): void {
    if (msg.kind === 'res') {
      const p = peer.pending.get(msg.id);
      peer.pending.delete(msg.id);
      p?.resolve(msg.reply);
      return;
    }
    void this.#serve(msg.req).then((reply) => peer.send({ kind: 'res', id: msg.id, reply }));
  }

  #drop(worker: number, peer: Peer, why: string): void {
    if (this.#peers.get(worker) === peer) this.#peers.delete(worker);
    peer.port.close();
    // Worded as the main thread's dispatcher words a worker lost under a task.
    const err = new QuiverError('ShardUnavailable', `Worker ${worker} failed: ${why}; its shards are being reloaded`);
    for (const p of peer.pending.values()) p.reject(err);
    peer.pending.clear();
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
      const id = this.#nextId++;
      reply = await new Promise<WorkerReply>((resolve, reject) => {
        peer.pending.set(id, { resolve, reject });
        peer.send({ kind: 'req', id, req }, moved);
      });
      // The worker answered the request's op with that op's result.
      if (reply.ok) return reply.result as ResultOf<O>;
    }
    throw QuiverError.fromWire(reply.error);
  }

  async close(): Promise<void> {
    for (const [w, p] of this.#peers) this.#drop(w, p, 'the server is closing');
  }
}
