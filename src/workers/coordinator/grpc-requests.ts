// A handed-off gRPC call, end to end, on whichever thread coordinates it: decode the raw request
// message with the protos and LOADER_OPTIONS (what @grpc/proto-loader does for grpc-js on the
// main thread, so messages/*.ts converters see the same objects), run the method's PointCall,
// stamp `time` and encode the reply (grpc-codec.ts). A failure comes back as a WireError, which the main thread
// maps to a gRPC status through unary.ts toStatus, the one place that mapping lives. It knows no
// transport (no grpc-js), and loads the protos only when the first call arrives, so threads that
// serve only REST never pay for them.
//
// Invariant: for the same message, the reply bytes and status are those the main thread's
// handler gave before the hand-off, except that a message that cannot be decoded answers
// INVALID_ARGUMENT (grpc-js answered INTERNAL).

import { QuiverError, type WireError } from '../../shared/errors.js';
import { isGrpcHandoff, type AnyHandoffRequest, type GrpcHandoffReply, type GrpcHandoffRequest, type HandoffReplyOf, type HandoffRequest } from '../../shared/coordination.js';
import { POINT_CALLS } from './grpc-point-calls.js';
import { isReadMethod, type GrpcHandoffMethod } from '../../shared/point-ops.js';
import type { Codec } from './grpc-codec.js';
import type { PointEngine } from '../../shared/point-engine.js';
import { handleRequest } from './rest-requests.js';
import { accessOf, bindAccess } from './tenant-engine.js';
import { engineAt, grpcReadLevel, type GrpcReadConsistency } from '../../shared/read-consistency.js';
import { checkRequestTimeout, readOperation, readWithin, timeoutSeconds } from '../service/request-timeout.js';

let codecs: Promise<Record<GrpcHandoffMethod, Codec>> | null = null;

/** A failure as the main thread's handler would have met it: ours as it is, anything else as grpc-js's wrapper worded it (unary.ts). */
function wireOf(err: unknown): WireError {
  if (err instanceof QuiverError) return err.toWire();
  return { code: 'Internal', message: `Service internal error: ${err instanceof Error ? err.message : String(err)}` };
}

/** Answers one handed-off gRPC call; never rejects (a failure is a reply with its error). */
export async function handleGrpcRequest(unbound: PointEngine, req: GrpcHandoffRequest): Promise<GrpcHandoffReply> {
  // The main thread's clock origin, in this thread's performance.now() terms.
  const t0 = req.t0 - performance.timeOrigin;
  // As handleRequest: a tenant-bound credential's call runs over the bound engine (tenant-engine.ts).
  const engine = bindAccess(unbound, accessOf(req));
  try {
    const codec = (await (codecs ??= import('./grpc-codec.js').then((m) => m.loadCodecs())))[req.method];
    let message: unknown;
    try {
      message = codec.decode(Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength));
    } catch (err) {
      throw QuiverError.badInput(`Malformed request message for /qdrant.Points/${req.method}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const m = message as { collection_name?: string; timeout?: unknown };
    // The main thread routed and authorized the call by the name it read from the raw bytes
    // (handoff.ts collectionNameOf); a message protobufjs reads another name from (an odd tag or
    // wire type for field 1) is refused, never served on a collection nobody decided on.
    if ((m.collection_name ?? '') !== (req.params.collection_name ?? '')) {
      throw QuiverError.badInput(`Malformed request message for /qdrant.Points/${req.method}: its collection_name is not a plain field 1`);
    }
    const seconds = timeoutSeconds(m.timeout);
    checkRequestTimeout(engine, m.collection_name, seconds);
    // A read's read_consistency (cluster mode; read-consistency.ts): the engine reading at the log's end.
    const read = engineAt(engine, () => grpcReadLevel((message as { read_consistency?: GrpcReadConsistency | null }).read_consistency));
    // A read's timeout bounds its answer; a write's bounds wait=true (grpc-point-calls.ts).
    const serve = (): Promise<object> => POINT_CALLS[req.method](read, message as never);
    const reply = isReadMethod(req.method) ? await readWithin(seconds, readOperation(req.method), serve) : await serve();
    const bytes = codec.encode({ ...reply, time: (performance.now() - t0) / 1000 });
    // A buffer of its own, exactly its size, which the channel moves (coordinator.ts): protobufjs
    // writes small messages into Node's shared pool, which must stay here; a large one has its own.
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    return { ok: true, body: owned ? bytes : new Uint8Array(bytes) };
  } catch (err) {
    return { ok: false, error: wireOf(err) };
  }
}

/** Either kind of hand-off, answered with its kind's reply (the coordinating worker's and the in-process coordinators' entry). */
export function handleAnyRequest<R extends AnyHandoffRequest>(engine: PointEngine, req: R): Promise<HandoffReplyOf<R>> {
  const reply = isGrpcHandoff(req) ? handleGrpcRequest(engine, req) : handleRequest(engine, req as HandoffRequest);
  // The branch taken is the one R names.
  return reply as Promise<HandoffReplyOf<R>>;
}
