// What a shard's JetStream log holds (cluster mode, docs/cluster.md sections 3 to 5), shared by the
// thread that publishes (main) and the worker that applies: the stream and subject names of a
// shard, the LMDB key of its applied position, and the encoding of one entry.
//
// An entry is the shard's part of one write, as the worker protocol states it (a LoggedWrite),
// minus what the log decides: the op id is the entry's stream sequence (so replay is idempotent:
// a point's version is the sequence that last wrote it), and `wait` is the publisher's business.
// Writes by filter carry the filter, evaluated by each replica at apply time on the state at that
// sequence, so every replica reaches the same result. The encoding is V8's structured-clone
// serializer (typed arrays kept as such), behind a format byte so that it can change.

import { deserialize, serialize } from 'node:v8';
import type { RequestOf } from './protocol.js';

/** The write ops that travel through a shard's log. */
export const LOGGED_OPS = ['upsert', 'updateVectors', 'delete', 'payload', 'deleteVectors'] as const;
export type LoggedOp = (typeof LOGGED_OPS)[number];

/** A shard write as the log holds it: the request without its op id, wait flag or address. */
export type LoggedWrite = {
  [O in LoggedOp]: Omit<RequestOf<O>, 'opId' | 'wait' | 'collection' | 'shard'>;
}[LoggedOp];

const LOGGED = new Set<string>(LOGGED_OPS);

export function isLoggedOp(op: string): op is LoggedOp {
  return LOGGED.has(op);
}

export function streamName(collection: number, shard: number): string {
  return `QV_${collection}_${shard}`;
}

export function subjectOf(collection: number, shard: number): string {
  return `qv.${collection}.${shard}`;
}

/** The key in the `meta` database holding the last sequence a shard applied (committed with the points). */
export function appliedSeqKey(collection: number, shard: number): string {
  return `applied_seq/${collection}/${shard}`;
}

const FORMAT_V1 = 1;

export function encodeEntry(write: LoggedWrite): Uint8Array {
  const body = serialize(write);
  const out = new Uint8Array(body.length + 1);
  out[0] = FORMAT_V1;
  out.set(body, 1);
  return out;
}

export function decodeEntry(bytes: Uint8Array): LoggedWrite {
  if (bytes[0] !== FORMAT_V1) throw new Error(`log entry of unknown format ${bytes[0] ?? 'none'}`);
  const value = deserialize(bytes.subarray(1)) as LoggedWrite;
  if (typeof value !== 'object' || value === null || !isLoggedOp(value.op)) throw new Error('log entry holds no shard write');
  return value;
}
