// The gRPC server: Quiver's own protos (proto/, wire-compatible with Qdrant's) served by
// @grpc/grpc-js beside fastify, over the same service layer. One interceptor admits each call
// before its message is read (readiness, then the permission table through the same
// AuthService.guard as REST); one wrapper (unary.ts) maps failures to statuses via GRPC_STATUS.
// The hot Points methods are handed off undecoded to the coordinating workers, and their calls
// are served by that interceptor itself (handoff.ts, HandoffCall).

import type { ClusterView } from '../cluster/view.js';
import * as grpc from '@grpc/grpc-js';
import type { FastifyBaseLogger } from 'fastify';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import { GRPC_HANDOFF_METHODS, type GrpcHandoffMethod } from '../../shared/point-ops.js';
import { GRPC_NO_COLLECTION, grpcAccess } from '../auth/permissions.js';
import type { AuthContext } from '../auth/context.js';
import { DEFERRED } from '../auth/authorize.js';
import type { AuthService } from '../auth/service.js';
import { accessLogEnabled, type Config } from '../config.js';
import type { Engine } from '../engine.js';
import type { Metrics } from '../metrics.js';
import type { Coordinators } from '../router/dispatcher.js';
import { collectionHandlers } from './collections.js';
import { holdEarlyStatuses } from './early-status.js';
import { handoffHandlers, HandoffCall, serveHandoff, withRawHandoffMethods, type Admitted, type CallGate, type ServeHandoff } from './handoff.js';
import { HEALTH_CHECK_PATH, healthHandlers } from './health.js';
import { pointHandlers } from './points.js';
import { loadServices } from './services.js';

export { warmServices } from './services.js';
import { toStatus, type GrpcContext } from './unary.js';
import { TLS_POLL_MS, tlsFiles } from '../../shared/tls.js';

/** What the gRPC server asks of the auth service. */
export type GrpcAuth = Pick<AuthService, 'guard' | 'forCollection'>;

export interface GrpcServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Admits a call before its request message is read, so a refusal costs the client no upload and
 * the server no decoding: 412 while the engine loads (the health check excepted), as REST; then
 * the method's rule in the permission table (a method without one is refused), checked by the
 * same guard as REST with the call's metadata as headers (`authorization: Bearer <token>` or
 * `api-key: <token>`). Throws the refusal.
 */
async function admit(engine: Engine, auth: GrpcAuth, path: string, metadata: grpc.Metadata, cluster: ClusterView | null): Promise<Admitted> {
  if (path !== HEALTH_CHECK_PATH && !engine.ready) throw QuiverError.precondition(ENGINE_NOT_INITIALIZED);
  // Cluster mode: a node without its lease refuses the data services, as REST's collections routes.
  if (cluster !== null && !path.startsWith('/qdrant.Qdrant/') && !cluster.leaseHeld()) throw new QuiverError('ShardUnavailable', cluster.notServingReason());
  const access = grpcAccess(path);
  if (access === undefined) throw QuiverError.forbidden(`${path} has no access rule`);
  // A method about one collection names it in its message, not read yet: a scoped credential is
  // decided on it once it is (decide).
  const ctx = await auth.guard(access, (name) => metadata.get(name)[0]?.toString(), GRPC_NO_COLLECTION.has(path) ? null : DEFERRED);
  return { ctx, access, path };
}

/**
 * The decision on the call's collection, once its message is read: throws the refusal, or returns
 * the context with the tenant binding that applies there. Methods about no collection were decided at admission.
 */
function decide(auth: GrpcAuth, a: Admitted, collection: string | undefined): AuthContext {
  if (GRPC_NO_COLLECTION.has(a.path)) return a.ctx;
  return auth.forCollection(a.ctx, a.access, collection ?? '');
}

/** Records each call's final status: the metrics, and the access log line when it is on. */
function recorder(log: FastifyBaseLogger, metrics: Metrics, accessLog: boolean): CallGate['record'] {
  let nextId = 0;
  return (path, code, t0, collection) => {
    const seconds = (performance.now() - t0) / 1000;
    const name = grpc.status[code] ?? String(code);
    metrics.grpc(path, name, code, seconds, collection);
    // The REST access line's fields: the method path is the route, the gRPC code the status.
    if (accessLog) {
      log.info(
        { reqId: `grpc-${++nextId}`, method: 'gRPC', route: path, status: name, ms: Math.round(seconds * 1e6) / 1e3, ...(collection !== undefined ? { collection } : {}) },
        'access',
      );
    }
  };
}

/** The hand-off methods by their paths. */
const HANDOFF_PATHS = new Map<string, GrpcHandoffMethod>(GRPC_HANDOFF_METHODS.map((m) => [`/qdrant.Points/${m}`, m]));

/**
 * Admits each call (see admit) and records every call's final status. The hand-off methods'
 * calls are also served here (HandoffCall), past grpc-js's unary handling.
 */
function gate(gate: CallGate, serve: ServeHandoff): grpc.ServerInterceptor {
  return (method, call) => {
    const handoff = HANDOFF_PATHS.get(method.path);
    if (handoff !== undefined) return new HandoffCall(call, method.path, handoff, gate, serve);
    const t0 = performance.now();
    let collection: string | undefined;
    let admitted: Admitted | null = null;
    const refuse = (err: unknown): void => {
      const status = toStatus(err, method.path, gate.log);
      gate.record(method.path, status.code, t0, collection);
      call.sendStatus(status);
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMessage: (message: unknown, pass: (m: unknown) => void) => {
            // for the access log, and the decision on a scoped credential
            if (typeof message === 'object' && message !== null && 'collection_name' in message && typeof message.collection_name === 'string') collection = message.collection_name;
            try {
              if (admitted !== null) gate.decide(admitted, collection);
            } catch (err) {
              refuse(err);
              return;
            }
            pass(message);
          },
          onReceiveMetadata: (metadata, accept) => {
            gate.admit(method.path, metadata).then(
              (a) => {
                admitted = a;
                accept(metadata);
              },
              refuse,
            );
          },
        }),
      sendStatus: (status, next) => {
        gate.record(method.path, status.code, t0, collection);
        next(status);
      },
    });
  };
}

function address(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Loads the protos, registers the three services and binds `config.grpc_port` (0: any free port).
 * The hand-off methods go to `coordinators`, as REST's hand-off routes do.
 */
export async function startGrpcServer(
  config: Config,
  engine: Engine,
  auth: GrpcAuth,
  log: FastifyBaseLogger,
  metrics: Metrics,
  coordinators: Coordinators,
  cluster: ClusterView | null = null,
): Promise<GrpcServer> {
  const services = loadServices(['qdrant.Qdrant', 'qdrant.Collections', 'qdrant.Points']);
  const maxBytes = Math.floor(config.grpc_max_message_mb * 1024 * 1024);
  const server = new grpc.Server({
    'grpc.max_receive_message_length': maxBytes,
    'grpc.max_send_message_length': maxBytes,
    // On by default in grpc-js: counters, timestamps and trackers per call and per connection,
    // read only through a channelz service, which Quiver does not serve.
    'grpc.enable_channelz': 0,
    interceptors: [
      gate(
        { admit: (path, metadata) => admit(engine, auth, path, metadata, cluster), decide: (a, collection) => decide(auth, a, collection), record: recorder(log, metrics, accessLogEnabled(config)), log, maxSendBytes: maxBytes },
        serveHandoff({ coordinators, metrics }),
      ),
    ],
  });
  const ctx: GrpcContext = { engine, log, cluster: cluster?.api, auth };
  server.addService(services['qdrant.Qdrant']!, healthHandlers(ctx));
  server.addService(services['qdrant.Collections']!, collectionHandlers(ctx));
  server.addService(withRawHandoffMethods(services['qdrant.Points']!), { ...pointHandlers(ctx), ...handoffHandlers({ coordinators, metrics, log }) });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address(config.host, config.grpc_port), credentialsOf(config), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    );
  });
  if (holdEarlyStatuses(server) === 0) {
    log.warn('gRPC: cannot reach grpc-js HTTP/2 servers; refusals of uploads over 10 MB may reach Node clients as ENHANCE_YOUR_CALM');
  }
  let closing: Promise<void> | null = null;
  return {
    port,
    /** Stops intake and lets calls in flight finish; after 10 s, ends the rest. */
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 10_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      return closing;
    },
  };
}

/** Plain gRPC, or TLS from the configured files, which grpc-js reads again when they change (tls.ts). */
function credentialsOf(config: Config): grpc.ServerCredentials {
  const tls = tlsFiles(config);
  if (tls === null) return grpc.ServerCredentials.createInsecure();
  const provider = new grpc.experimental.FileWatcherCertificateProvider({ certificateFile: tls.cert, privateKeyFile: tls.key, refreshIntervalMs: TLS_POLL_MS });
  return grpc.experimental.createCertificateProviderServerCredentials(provider, null, false);
}
