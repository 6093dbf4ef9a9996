// The main thread's half of a handed-off gRPC call (GRPC_HANDOFF_METHODS): grpc-js reads the
// message (size limit, decompression, deadline) but does not decode it, because those methods are
// registered with identity (de)serializers; the admission interceptor (server.ts) has already
// checked readiness and auth from the metadata. The raw message goes in one message to a
// coordinating worker through the same Coordinators as REST hand-offs, and the encoded reply is
// written back as it came, or the worker's failure mapped to a status by toStatus (unary.ts).
//
// The one thing read from the message here is its collection name (field 1 of every hand-off
// method's request), by walking the top-level field tags without decoding anything: routing by
// collection (collections with read copies, replica-aware.ts) needs it, and so does the access log.

import type * as grpc from '@grpc/grpc-js';
import type { FastifyBaseLogger } from 'fastify';
import { QuiverError } from '../../shared/errors.js';
import { GRPC_HANDOFF_METHODS, type GrpcHandoffMethod } from '../../shared/protocol.js';
import type { Metrics } from '../metrics.js';
import type { Coordinators } from '../router/dispatcher.js';
import { toStatus } from './unary.js';

const utf8 = new TextDecoder('utf-8');

/** A varint at `at`: [value, next offset], or null past the end or over 35 bits (no tag or length here is larger). */
function varint(b: Uint8Array, at: number): [number, number] | null {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (at >= b.length) return null;
    const byte = b[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
  return null;
}

/**
 * The message's field 1 as a string, if it is a length-delimited field (the last one wins, as
 * protobuf decoding has it), by skipping over the top-level fields; undefined when there is none
 * or the bytes are not a well-formed message (the worker's decoding then says what is wrong).
 */
export function collectionNameOf(b: Uint8Array): string | undefined {
  let name: string | undefined;
  let at = 0;
  while (at < b.length) {
    const tag = varint(b, at);
    if (tag === null) return undefined;
    at = tag[1];
    const wire = tag[0] % 8;
    if (wire === 0) {
      const v = varint(b, at);
      if (v === null) return undefined;
      at = v[1];
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const len = varint(b, at);
      if (len === null || len[1] + len[0] > b.length) return undefined;
      if (Math.floor(tag[0] / 8) === 1) name = utf8.decode(b.subarray(len[1], len[1] + len[0]));
      at = len[1] + len[0];
    } else return undefined;
  }
  return at === b.length ? name : undefined;
}

const identity = (b: Buffer): Buffer => b;

/** The service definition with the hand-off methods' messages left as bytes both ways. */
export function withRawHandoffMethods(service: grpc.ServiceDefinition): grpc.ServiceDefinition {
  const raw: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
  for (const m of GRPC_HANDOFF_METHODS) {
    const d = service[m];
    if (d === undefined) throw QuiverError.internal(`the protos have no Points/${m}`);
    raw[m] = { ...d, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity };
  }
  return { ...service, ...raw };
}

export interface GrpcHandoffDeps {
  coordinators: Coordinators;
  metrics: Metrics;
  log: FastifyBaseLogger;
}

/** The handlers of the hand-off methods: bytes in, bytes (or a status) out. */
export function handoffHandlers({ coordinators, metrics, log }: GrpcHandoffDeps): Record<GrpcHandoffMethod, grpc.handleUnaryCall<Buffer, Buffer>> {
  const handler =
    (method: GrpcHandoffMethod): grpc.handleUnaryCall<Buffer, Buffer> =>
    (call, callback) => {
      const body = call.request;
      const name = collectionNameOf(body);
      coordinators
        .handoff({ kind: 'grpc', method, params: name === undefined ? {} : { collection_name: name }, body, t0: performance.timeOrigin + performance.now() })
        .then(
          ({ reply, worker }) => {
            metrics.coordinated(worker);
            if (reply.ok) callback(null, Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength));
            else callback(toStatus(QuiverError.fromWire(reply.error), call.getPath(), log));
          },
          (err: unknown) => callback(toStatus(err, call.getPath(), log)),
        );
    };
  return {
    Search: handler('Search'),
    SearchBatch: handler('SearchBatch'),
    Query: handler('Query'),
    QueryBatch: handler('QueryBatch'),
    Upsert: handler('Upsert'),
    Get: handler('Get'),
    Count: handler('Count'),
    Scroll: handler('Scroll'),
  };
}
