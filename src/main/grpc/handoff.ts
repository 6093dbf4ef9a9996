// The main thread's half of a handed-off gRPC call (GRPC_HANDOFF_METHODS): grpc-js reads the
// message (size limit, decompression, deadline) but does not decode it, because those methods are
// registered with identity (de)serializers; the admission interceptor (server.ts) has already
// checked readiness and auth from the metadata. The raw message goes in one message to a
// coordinating worker through the same Coordinators as REST hand-offs, and the encoded reply is
// written back as it came, or the worker's failure mapped to a status by toStatus (unary.ts).
//
// The hand-off methods' calls are served by the admission interceptor itself (HandoffCall, made
// by server.ts's gate), not by grpc-js's unary handling; the registered handlers do the same work
// for a server without that interceptor.
//
// The one thing read from the message here is its collection name (field 1 of every hand-off
// method's request), by walking the top-level field tags without decoding anything: routing by
// collection (collections with read copies, replica-aware.ts) needs it, and so does the access log.

import * as grpc from '@grpc/grpc-js';
import type { FastifyBaseLogger } from 'fastify';
import { QuiverError } from '../../shared/errors.js';
import { GRPC_HANDOFF_METHODS, type GrpcHandoffMethod } from '../../shared/point-ops.js';
import type { Metrics } from '../metrics.js';
import type { Coordinators } from '../router/dispatcher.js';
import { toStatus } from './unary.js';
import { scopeOf } from '../auth/authorize.js';
import type { AuthContext } from '../auth/context.js';
import type { Access } from '../auth/permissions.js';

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

/**
 * The hand-off itself: the message to a coordinating worker, its reply bytes back (or its failure
 * thrown). `tenant`: the binding of the call's credential on its collection (coordination.ts).
 */
export type ServeHandoff = (method: GrpcHandoffMethod, body: Buffer, collection: string | undefined, ctx?: AuthContext) => Promise<Buffer>;

export function serveHandoff({ coordinators, metrics }: Pick<GrpcHandoffDeps, 'coordinators' | 'metrics'>): ServeHandoff {
  return (method, body, collection, ctx) => {
    const tenant = ctx?.tenant;
    const scope = scopeOf(ctx);
    return coordinators
      .handoff({
        kind: 'grpc',
        method,
        params: collection === undefined ? {} : { collection_name: collection },
        body,
        t0: performance.timeOrigin + performance.now(),
        ...(tenant === undefined ? {} : { tenant }),
        ...(scope === undefined ? {} : { scope }),
      })
      .then(({ reply, worker }) => {
        metrics.coordinated(worker);
        if (!reply.ok) throw QuiverError.fromWire(reply.error);
        return Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength);
      });
  };
}

/**
 * The handlers of the hand-off methods: bytes in, bytes (or a status) out. The admission
 * interceptor serves these methods itself (HandoffCall), so these run only on a server built
 * without it; they serve the calls the same way.
 */
export function handoffHandlers(deps: GrpcHandoffDeps): Record<GrpcHandoffMethod, grpc.handleUnaryCall<Buffer, Buffer>> {
  const serve = serveHandoff(deps);
  const handler =
    (method: GrpcHandoffMethod): grpc.handleUnaryCall<Buffer, Buffer> =>
    (call, callback) => {
      serve(method, call.request, collectionNameOf(call.request)).then(
        (reply) => callback(null, reply),
        (err: unknown) => callback(toStatus(err, call.getPath(), deps.log)),
      );
    };
  return Object.fromEntries(GRPC_HANDOFF_METHODS.map((m) => [m, handler(m)])) as Record<GrpcHandoffMethod, grpc.handleUnaryCall<Buffer, Buffer>>;
}

/** A call let in by its metadata: who it is and the method's rule, for the decision on its collection. */
export interface Admitted {
  ctx: AuthContext;
  access: Access;
  path: string;
}

/** What a HandoffCall asks of the interceptor that made it: admission and the record of the outcome. */
export interface CallGate {
  /** Resolves when the call is admitted; rejects with the refusal. */
  admit(path: string, metadata: grpc.Metadata): Promise<Admitted>;
  /** The decision on the collection the message names: the context with its binding, or the refusal thrown. */
  decide(admitted: Admitted, collection: string | undefined): AuthContext;
  /** The call's final status, for the metrics and the access log; `t0` from performance.now() at its start. */
  record(path: string, code: grpc.status, t0: number, collection: string | undefined): void;
  log: FastifyBaseLogger;
  /** grpc.max_send_message_length */
  maxSendBytes: number;
}

type BaseListener = Parameters<grpc.ServerInterceptingCallInterface['start']>[0];

const noop = (): void => undefined;

/**
 * A hand-off method's call, served by the admission interceptor on the call grpc-js made for the
 * stream (which reads, size-checks and decompresses the message), without grpc-js's unary
 * handling: that builds a Writable stream object per call for the handler, and sends the status
 * only once the reply's write has completed, so the trailers leave in a second socket write, one
 * event-loop turn later. Here the reply and the OK status are queued together and leave in one
 * write. The handler grpc-js registered for the method is never reached; the steps it takes
 * (one message, then the half-close) and its refusals are the same.
 */
export class HandoffCall extends grpc.ServerInterceptingCall {
  readonly #call: grpc.ServerInterceptingCallInterface;
  readonly #path: string;
  readonly #method: GrpcHandoffMethod;
  readonly #gate: CallGate;
  readonly #serve: ServeHandoff;
  readonly #t0 = performance.now();
  #body: Buffer | null = null;
  #collection: string | undefined;
  #admitted: Admitted | null = null;
  #done = false;

  constructor(call: grpc.ServerInterceptingCallInterface, path: string, method: GrpcHandoffMethod, gate: CallGate, serve: ServeHandoff) {
    // A ServerInterceptingCall because grpc-js's interceptor type asks for one; of its own
    // behaviour only the pass-through of what is not overridden here is used.
    super(call);
    this.#call = call;
    this.#path = path;
    this.#method = method;
    this.#gate = gate;
    this.#serve = serve;
  }

  override start(_handler: BaseListener): void {
    const listener: BaseListener = {
      onReceiveMetadata: (metadata: grpc.Metadata) => {
        this.#gate.admit(this.#path, metadata).then(
          (a) => {
            this.#admitted = a;
            this.#call.startRead();
          },
          (err: unknown) => this.#fail(err),
        );
      },
      onReceiveMessage: (message: Buffer) => {
        if (this.#body !== null) {
          // grpc-js's unary handling answers a second message so
          this.sendStatus({ code: grpc.status.UNIMPLEMENTED, details: `Received a second request message for server streaming method ${this.#path}` });
          return;
        }
        this.#body = message;
        this.#collection = collectionNameOf(message);
        this.#call.startRead();
      },
      onReceiveHalfClose: () => {
        const body = this.#body;
        if (body === null) {
          this.sendStatus({ code: grpc.status.UNIMPLEMENTED, details: `Received no request message for server streaming method ${this.#path}` });
          return;
        }
        let ctx: AuthContext;
        try {
          // Admitted before any message is read (startRead waits for it).
          ctx = this.#gate.decide(this.#admitted!, this.#collection);
        } catch (err) {
          this.#fail(err);
          return;
        }
        this.#serve(this.#method, body, this.#collection, ctx).then(
          (reply) => this.#reply(reply),
          (err: unknown) => this.#fail(err),
        );
      },
      // grpc-js calls this once the call has ended, however: after the status, a client's
      // cancellation, or a deadline grpc-js answered itself. A reply after that is neither sent
      // nor recorded (grpc-js's own status is not recorded either, as before).
      onCancel: () => {
        this.#done = true;
      },
    };
    this.#call.start(listener);
  }

  #reply(reply: Buffer): void {
    if (this.#done) return;
    if (reply.length > this.#gate.maxSendBytes) {
      // grpc-js would refuse it in sendMessage and end the call itself, past this record
      this.sendStatus({ code: grpc.status.RESOURCE_EXHAUSTED, details: `Sent message larger than max (${reply.length + 5} vs. ${this.#gate.maxSendBytes})` });
      return;
    }
    this.#call.sendMessage(reply, noop);
    this.sendStatus({ code: grpc.status.OK, details: 'OK' });
  }

  #fail(err: unknown): void {
    this.sendStatus(toStatus(err, this.#path, this.#gate.log));
  }

  override sendStatus(status: Parameters<grpc.ServerInterceptingCallInterface['sendStatus']>[0]): void {
    if (this.#done) return;
    this.#done = true;
    this.#gate.record(this.#path, status.code, this.#t0, this.#collection);
    this.#call.sendStatus(status);
  }
}
