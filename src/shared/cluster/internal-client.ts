// The internal port's client side: one TCP connection per peer (keyed by its advertised address,
// reused by every call, opened again after it fails; replaced when the peer comes back on another
// address), carrying the two calls of internal-wire.ts. A transport failure (refused, lost or
// timed-out connection, a call past its deadline, the peer's refusal to serve) is a
// PeerUnreachable, which ClusterShards retries on another replica; an answer the peer gave is
// rebuilt with QuiverError.fromWire.

import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { readTlsPair, type TlsFiles } from '../tls.js';
import { QuiverError } from '../errors.js';
import {
  decode,
  encode,
  frameHeader,
  FrameReader,
  KIND,
  PREAMBLE,
  type AwaitAppliedRequest,
  type Frame,
  type InternalReply,
  type RequestKind,
  type ShardCallRequest,
} from './internal-wire.js';
import type { PeerInfo } from './state.js';

/** The peer could not be asked (or did not answer in time): another replica may be. */
export class PeerUnreachable extends QuiverError {
  constructor(peer: number, why: string) {
    super('ShardUnavailable', `node ${peer} unreachable: ${why}`);
  }
}

/** What ClusterShards asks of other nodes (a fake in unit tests). */
export interface PeerCalls {
  /**
   * `waitMs`: how long the whole call may take, the replica's catch-up (req.timeoutMs) included.
   * `signal` cancels the call (a hedged read answered elsewhere); it then rejects as unreachable.
   */
  shardCall(peer: PeerInfo, req: ShardCallRequest, waitMs: number, signal?: AbortSignal): Promise<unknown>;
  awaitApplied(peer: PeerInfo, req: AwaitAppliedRequest): Promise<{ result: unknown }>;
  close(): void;
}

/** Margin past the receiver's own timeout before the client gives up on it (ms). */
const DEADLINE_MARGIN_MS = 1000;
/** A connection not established by then is dropped, and its calls fail (ms). */
const CONNECT_TIMEOUT_MS = 3000;
/** TCP keepalive: a peer machine that vanished is found out between calls. */
const KEEPALIVE_MS = 10_000;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** "host:port" or "[v6]:port" as advertised under /quiver/nodes. */
export function parseAdvertise(advertise: string): { host: string; port: number } {
  const at = advertise.lastIndexOf(':');
  const host = advertise.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(advertise.slice(at + 1)) };
}

/** One connection to one peer, with its calls in flight by id. */
class PeerConnection {
  readonly advertise: string;
  readonly #peer: number;
  readonly #socket: Socket;
  readonly #reader: FrameReader;
  readonly #pending = new Map<number, Pending>();
  readonly #maxMessageBytes: number;
  readonly #gone: () => void;
  #nextId = 0;
  #corked = false;
  #closed: string | null = null;

  constructor(peer: number, advertise: string, maxMessageBytes: number, gone: () => void, tls?: Required<TlsFiles>) {
    this.advertise = advertise;
    this.#peer = peer;
    this.#maxMessageBytes = maxMessageBytes;
    this.#reader = new FrameReader(maxMessageBytes);
    this.#gone = gone;
    const { host, port } = parseAdvertise(advertise);
    // With TLS (cluster.enable_tls) the files are read at each connection, so a renewed certificate
    // is used from the next one; the peer's must be signed by the CA and name its address.
    const options = { host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: KEEPALIVE_MS };
    const socket = tls === undefined ? connect(options) : connectTls({ ...options, ...readTlsPair(tls) });
    this.#socket = socket;
    const connecting = setTimeout(() => this.#fail('connect timed out'), CONNECT_TIMEOUT_MS);
    connecting.unref();
    socket.once(tls === undefined ? 'connect' : 'secureConnect', () => clearTimeout(connecting));
    socket.on('data', (chunk: Buffer) => {
      let frames: Frame[];
      try {
        frames = this.#reader.push(chunk);
      } catch (err) {
        this.#fail(err instanceof Error ? err.message : String(err));
        return;
      }
      for (const f of frames) this.#answer(f);
    });
    socket.on('error', (err) => this.#fail(err.message));
    socket.on('close', () => {
      clearTimeout(connecting);
      this.#fail('connection closed');
    });
    socket.write(PREAMBLE);
  }

  get closed(): boolean {
    return this.#closed !== null;
  }

  call<T>(kind: RequestKind, req: object, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted === true) return reject(new PeerUnreachable(this.#peer, 'cancelled'));
      if (this.#closed !== null) return reject(new PeerUnreachable(this.#peer, this.#closed));
      const payload = encode(req);
      if (payload.length > this.#maxMessageBytes) {
        return reject(new PeerUnreachable(this.#peer, `request of ${payload.length} bytes is over the internal message limit of ${this.#maxMessageBytes}`));
      }
      const id = (this.#nextId = (this.#nextId + 1) >>> 0);
      const cancel = (): void => settle(new PeerUnreachable(this.#peer, 'cancelled'));
      const settle = (err: Error | null, value?: unknown): void => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        if (err === null) resolve(value as T);
        else reject(err);
      };
      // The peer may still run the request; this node stops waiting for it and drops a late answer.
      const timer = setTimeout(() => settle(new PeerUnreachable(this.#peer, `no answer within ${timeoutMs + DEADLINE_MARGIN_MS} ms`)), timeoutMs + DEADLINE_MARGIN_MS);
      this.#pending.set(id, { resolve: (v) => settle(null, v), reject: (e) => settle(e), timer });
      signal?.addEventListener('abort', cancel, { once: true });
      this.#send(frameHeader(id, kind, payload.length), payload);
    });
  }

  /** Frames written in one turn leave in one write. */
  #send(header: Buffer, payload: Buffer): void {
    if (!this.#corked) {
      this.#corked = true;
      this.#socket.cork();
      process.nextTick(() => {
        this.#corked = false;
        this.#socket.uncork();
      });
    }
    this.#socket.write(header);
    this.#socket.write(payload);
  }

  #answer(f: Frame): void {
    const p = this.#pending.get(f.id);
    if (p === undefined) return; // cancelled or timed out: nobody waits for it
    if (f.kind === KIND.refused) return p.reject(new PeerUnreachable(this.#peer, f.payload.toString('utf8')));
    let reply: InternalReply<unknown>;
    try {
      if (f.kind !== KIND.reply) throw new Error(`frame kind ${f.kind}`);
      reply = decode<InternalReply<unknown>>(f.payload);
    } catch (e) {
      return p.reject(QuiverError.internal(`node ${this.#peer} answered a malformed internal reply: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (reply.ok) p.resolve(reply.result);
    else p.reject(QuiverError.fromWire(reply.error));
  }

  /** Fails every call in flight and drops the connection (the next call opens another). */
  #fail(why: string): void {
    if (this.#closed !== null) return;
    this.#closed = why;
    this.#socket.destroy();
    this.#gone();
    for (const p of [...this.#pending.values()]) p.reject(new PeerUnreachable(this.#peer, why));
  }

  close(): void {
    this.#fail('client closed');
  }
}

export class InternalPeers implements PeerCalls {
  readonly #connections = new Map<number, PeerConnection>();
  readonly #maxMessageBytes: number;
  readonly #tls: Required<TlsFiles> | undefined;

  constructor(maxMessageBytes: number, tls?: Required<TlsFiles>) {
    this.#maxMessageBytes = maxMessageBytes;
    this.#tls = tls;
  }

  #connection(peer: PeerInfo): PeerConnection {
    const known = this.#connections.get(peer.id);
    if (known !== undefined && !known.closed && known.advertise === peer.advertise) return known;
    known?.close();
    const made: PeerConnection = new PeerConnection(
      peer.id,
      peer.advertise,
      this.#maxMessageBytes,
      () => {
        if (this.#connections.get(peer.id) === made) this.#connections.delete(peer.id);
      },
      this.#tls,
    );
    this.#connections.set(peer.id, made);
    return made;
  }

  shardCall(peer: PeerInfo, req: ShardCallRequest, waitMs: number, signal?: AbortSignal): Promise<unknown> {
    return this.#connection(peer).call<unknown>(KIND.shardCall, req, waitMs, signal);
  }

  awaitApplied(peer: PeerInfo, req: AwaitAppliedRequest): Promise<{ result: unknown }> {
    return this.#connection(peer).call<{ result: unknown }>(KIND.awaitApplied, req, req.timeoutMs);
  }

  close(): void {
    for (const c of [...this.#connections.values()]) c.close();
    this.#connections.clear();
  }
}
