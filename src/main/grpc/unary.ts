// The one wrapper every gRPC handler goes through: it runs the handler, stamps `time` on replies
// that carry one, and turns any failure into a gRPC status through GRPC_STATUS (errors.ts), so
// the mapping from QuiverError codes to statuses lives in one place for REST and gRPC alike.

import * as grpc from '@grpc/grpc-js';
import type { FastifyBaseLogger } from 'fastify';
import { GRPC_STATUS, QuiverError } from '../../shared/errors.js';
import type { ClusterApi } from '../cluster/view.js';
import type { Engine } from '../engine.js';
import type { AuthService } from '../auth/service.js';

/** What every handler set is built from. */
export interface GrpcContext {
  engine: Engine;
  log: FastifyBaseLogger;
  /** Cluster mode: the cluster API's view of this node (service/cluster.ts); undefined in single-node mode. */
  cluster?: ClusterApi | undefined;
  /** Who a call is, again, where a handler's answer depends on it (the collections a scoped credential sees). */
  auth?: Pick<AuthService, 'guard'> | undefined;
}

/** A failure of any origin as a gRPC status, logged as REST logs it (4xx at info, 5xx at error). */
export function toStatus(err: unknown, method: string, log: FastifyBaseLogger): grpc.StatusObject {
  if (err instanceof QuiverError) {
    const code = GRPC_STATUS[err.code];
    if (err.logLevel === 'error') log.error({ err, method, grpc_code: code }, err.message);
    else log.info({ method, grpc_code: code }, err.message);
    const metadata = new grpc.Metadata();
    // As Qdrant: a rate limit's wait goes back as `retry-after` metadata, whole seconds.
    if (err.retryAfterSeconds !== undefined) metadata.set('retry-after', String(err.retryAfterSeconds));
    return { code, details: err.message, metadata };
  }
  log.error({ err, method }, 'gRPC handler failed');
  const message = err instanceof Error ? err.message : String(err);
  return { code: grpc.status.INTERNAL, details: `Service internal error: ${message}`, metadata: new grpc.Metadata() };
}

export function unary<Req, Res>(log: FastifyBaseLogger, fn: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => callback(toStatus(err, call.getPath(), log)),
    );
  };
}

/** For replies with Qdrant's `time` field: the handler returns the rest, the wrapper adds the seconds it took. */
export function timed<Req, Res extends { time?: number | string }>(
  log: FastifyBaseLogger,
  fn: (req: Req) => Promise<Omit<Res, 'time'>>,
): grpc.handleUnaryCall<Req, Res> {
  return unary<Req, Res>(log, async (req) => {
    const t0 = performance.now();
    const res = await fn(req);
    return { ...res, time: (performance.now() - t0) / 1000 } as Res;
  });
}

/** Methods Quiver does not offer; the message is REST's 501 for the same feature (one wording, in errors.ts). */
export function unimplemented<Req, Res>(log: FastifyBaseLogger, feature: string): grpc.handleUnaryCall<Req, Res> {
  return unary<Req, Res>(log, () => Promise.reject(QuiverError.featureNotImplemented(feature)));
}
