// The internal port's messages (proto/internal.proto names the service; the bytes are node:v8
// serializations of the shapes here): shared by the server (internal-server.ts) and the peer
// client (internal-client.ts), so both sides agree on one definition. Errors travel as WireError
// and are rebuilt with QuiverError.fromWire: one error taxonomy across nodes too.

import { deserialize, serialize } from 'node:v8';
import type { WireError } from '../errors.js';
import type { ShardCall, ShardOp } from '../shard-router.js';

export const SHARD_CALL_PATH = '/quiver.internal.Node/ShardCall';
export const AWAIT_APPLIED_PATH = '/quiver.internal.Node/AwaitApplied';

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
