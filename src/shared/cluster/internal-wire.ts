// The internal port's wire (docs/cluster.md section 6): shared by the server (internal-server.ts)
// and the peer client (internal-client.ts), so both sides agree on one definition.
//
// A connection is a plain TCP stream. The client first sends PREAMBLE (a peer that sends anything
// else is not a Quiver node and is dropped); then each side sends frames:
//   u32 LE length of what follows | u32 LE call id | u8 kind | payload (length - 5 bytes)
// Requests carry a node:v8 serialization of ShardCallRequest or AwaitAppliedRequest; a REPLY
// carries one of InternalReply (the call's outcome, an error as WireError, rebuilt with
// QuiverError.fromWire: one error taxonomy across nodes too); a REFUSED carries the reason, in
// UTF-8, the node would not run the call (no lease, still loading, malformed, too large), which the
// caller treats as this replica being unreachable. Why not gRPC: docs/decisions.md section 11.

import { deserialize, serialize } from 'node:v8';
import type { WireError } from '../errors.js';
import type { ShardCall, ShardOp } from '../shard-router.js';

/** What a client sends before its first frame: "QVI" and the wire's version. */
export const PREAMBLE = Buffer.from('QVI\x01', 'latin1');

/** Frame kinds: the two calls one way, the two answers the other. */
export const KIND = { shardCall: 1, awaitApplied: 2, reply: 16, refused: 17 } as const;
export type RequestKind = typeof KIND.shardCall | typeof KIND.awaitApplied;

/** Bytes of a frame's header: length, call id, kind. */
export const HEADER_BYTES = 9;

/** A worker request for one shard of one collection, run on the receiving node's own replica. */
export interface ShardCallRequest {
  collectionId: number;
  shard: number;
  req: ShardCall<ShardOp>;
  /** Run once the replica has applied the shard's log this far (a read at the log's end). */
  minSeq?: number;
  /** How long the receiver may wait for its replica to reach minSeq before answering ShardUnavailable (ms). */
  timeoutMs: number;
}

export interface AwaitAppliedRequest {
  collectionId: number;
  shard: number;
  seq: number;
  timeoutMs: number;
}

export type InternalReply<T> = { ok: true; result: T } | { ok: false; error: WireError };

export function encode(value: unknown): Buffer {
  return serialize(value);
}

export function decode<T>(bytes: Buffer): T {
  return deserialize(bytes) as T;
}

/** A frame's header for `payloadBytes` of payload (the payload is written after it, uncopied). */
export function frameHeader(id: number, kind: number, payloadBytes: number): Buffer {
  const h = Buffer.allocUnsafe(HEADER_BYTES);
  h.writeUInt32LE(payloadBytes + 5, 0);
  h.writeUInt32LE(id, 4);
  h.writeUInt8(kind, 8);
  return h;
}

export interface Frame {
  id: number;
  kind: number;
  payload: Buffer;
}

/**
 * Cuts a byte stream into frames, however the stream splits them. A frame announcing more than
 * `maxPayloadBytes` is a protocol error (the stream cannot be trusted past it): `push` throws.
 * Chunks are kept as they come and joined once per frame, so a large frame costs one copy.
 */
export class FrameReader {
  readonly #maxPayloadBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(maxPayloadBytes: number) {
    this.#maxPayloadBytes = maxPayloadBytes;
  }

  /** The frames `chunk` completes, in order. */
  push(chunk: Buffer): Frame[] {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    const frames: Frame[] = [];
    while (this.#bytes >= HEADER_BYTES) {
      const head = this.#chunks[0]!.length >= HEADER_BYTES ? this.#chunks[0]! : this.#join();
      const length = head.readUInt32LE(0);
      if (length < 5 || length - 5 > this.#maxPayloadBytes) throw new Error(`frame of ${length} bytes: over the limit of ${this.#maxPayloadBytes + 5}`);
      if (this.#bytes < 4 + length) break;
      const all = this.#chunks.length === 1 ? this.#chunks[0]! : this.#join();
      frames.push({ id: all.readUInt32LE(4), kind: all.readUInt8(8), payload: all.subarray(HEADER_BYTES, 4 + length) });
      const rest = all.subarray(4 + length);
      this.#chunks = rest.length > 0 ? [rest] : [];
      this.#bytes = rest.length;
    }
    return frames;
  }

  #join(): Buffer {
    const all = Buffer.concat(this.#chunks, this.#bytes);
    this.#chunks = [all];
    return all;
  }
}
