// The internal port's client side: one HTTP/2 channel per peer (keyed by its advertised address,
// reused by every call; replaced when the peer comes back on another address), and the two calls
// of proto/internal.proto. A transport failure (UNAVAILABLE, DEADLINE_EXCEEDED, a refused or lost
// connection) is a PeerUnreachable, which ClusterShards retries on another replica; an answer the
// peer gave is rebuilt with QuiverError.fromWire.

import * as grpc from '@grpc/grpc-js';
import { QuiverError } from '../errors.js';
import { AWAIT_APPLIED_PATH, decode, encode, SHARD_CALL_PATH, type AwaitAppliedRequest, type InternalReply, type ShardCallRequest } from './internal-wire.js';
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

const identity = (b: Buffer): Buffer => b;

/** Margin past the receiver's own timeout before the channel gives up on it (ms). */
const DEADLINE_MARGIN_MS = 1000;

export class GrpcPeers implements PeerCalls {
  readonly #clients = new Map<number, { advertise: string; client: grpc.Client }>();
  readonly #maxMessageBytes: number;

  constructor(maxMessageBytes: number) {
    this.#maxMessageBytes = maxMessageBytes;
  }

  #client(peer: PeerInfo): grpc.Client {
    const known = this.#clients.get(peer.id);
    if (known !== undefined && known.advertise === peer.advertise) return known.client;
    known?.client.close();
    const client = new grpc.Client(peer.advertise, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': this.#maxMessageBytes,
      'grpc.max_send_message_length': this.#maxMessageBytes,
      // A peer that died is found out between calls, not by the next read's deadline.
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
    });
    this.#clients.set(peer.id, { advertise: peer.advertise, client });
    return client;
  }

  #call<T>(peer: PeerInfo, path: string, req: object, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    const client = this.#client(peer);
    const deadline = Date.now() + timeoutMs + DEADLINE_MARGIN_MS;
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(new PeerUnreachable(peer.id, 'cancelled'));
        return;
      }
      const cancel = (): void => call.cancel();
      const call = client.makeUnaryRequest<Buffer, Buffer>(path, identity, identity, encode(req), new grpc.Metadata(), { deadline }, (err, bytes) => {
        signal?.removeEventListener('abort', cancel);
        if (err !== null || bytes === undefined) {
          // Every status here is the transport's or the peer's refusal to serve (not a request's
          // outcome, which comes back as a reply): another replica may answer.
          reject(new PeerUnreachable(peer.id, err?.details || err?.message || 'no reply'));
          return;
        }
        let reply: InternalReply<T>;
        try {
          reply = decode<InternalReply<T>>(bytes);
        } catch (e) {
          reject(QuiverError.internal(`node ${peer.id} answered a malformed internal reply: ${e instanceof Error ? e.message : String(e)}`));
          return;
        }
        if (reply.ok) resolve(reply.result);
        else reject(QuiverError.fromWire(reply.error));
      });
      // The peer's worker may still run the request; this node stops waiting for it (and grpc-js
      // answers the callback with CANCELLED).
      signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  shardCall(peer: PeerInfo, req: ShardCallRequest, waitMs: number, signal?: AbortSignal): Promise<unknown> {
    return this.#call<unknown>(peer, SHARD_CALL_PATH, req, waitMs, signal);
  }

  awaitApplied(peer: PeerInfo, req: AwaitAppliedRequest): Promise<{ result: unknown }> {
    return this.#call<{ result: unknown }>(peer, AWAIT_APPLIED_PATH, req, req.timeoutMs);
  }

  close(): void {
    for (const { client } of this.#clients.values()) client.close();
    this.#clients.clear();
  }
}
