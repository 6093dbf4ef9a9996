// buildApp assembles the REST server without listening, so tests can inject() and main can
// listen. One error handler and one not-found handler make every failure, fastify's own too,
// a spec envelope; one onRequest hook gates everything but health checks on readiness, and the
// auth hook (src/main/auth/http.ts) checks every route against the permission table.

import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../shared/json.js';
import { accessLogEnabled, type Config } from '../config.js';
import { LazyChildLogger } from './lazy-logger.js';
import type { Metrics } from '../metrics.js';
import type { Engine } from '../engine.js';
import { installAuth } from '../auth/http.js';
import type { AuthService } from '../auth/service.js';
import { InProcessCoordinators } from '../coordinator/in-process.js';
import type { Coordinators } from '../router/dispatcher.js';
import { validatorCompiler } from '../../shared/validation.js';
import { failure, retryAfterFor, toFailure } from '../../shared/envelope.js';
import { installApiDocs } from './api-docs.js';
import { installRouteDocs } from './route-docs.js';
import type { ClusterView } from '../cluster/view.js';
import { authRoutes } from './routes/auth.js';
import { clusterRoutes } from './routes/cluster.js';
import { collectionRoutes } from './routes/collections.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { BEFORE_READY_PATHS, healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { pointRoutes } from './routes/points.js';
import { telemetryRoutes } from './routes/telemetry.js';
import { issueRoutes } from './routes/issues.js';
import { unimplementedRoutes } from './routes/unimplemented.js';
import { readTlsPair, tlsFiles } from '../../shared/tls.js';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() at arrival, for the envelope's `time`. */
    t0: number;
  }
}

/**
 * The fields of a REST access line (pino adds `reqId`). Only the route template is logged, never
 * the query string or a body; an unmatched request logs its path so a 404 can be traced.
 */
export function accessLine(method: string, route: string | undefined, url: string, status: number, seconds: number, params: unknown): Record<string, unknown> {
  const collection = typeof params === 'object' && params !== null && 'collection_name' in params ? params.collection_name : undefined;
  return {
    method,
    route: route ?? null,
    ...(route === undefined ? { path: url.split('?')[0] } : {}),
    status,
    ms: Math.round(seconds * 1e6) / 1e3,
    ...(typeof collection === 'string' ? { collection } : {}),
  };
}

export { MAX_JSON_DEPTH };

/**
 * `coordinators` serve the handed-off point routes (src/main/http/handoff.ts): the worker threads
 * in the server, the main thread itself over `engine` by default (tests on the in-process dispatcher).
 */
export async function buildApp(
  config: Config,
  engine: Engine,
  auth: AuthService,
  metrics: Metrics,
  coordinators: Coordinators = new InProcessCoordinators(engine),
  cluster: ClusterView | null = null,
): Promise<FastifyInstance> {
  // The access log replaces fastify's two request lines with one compact line (onResponse below);
  // the decision to write it is taken once, so with it off (or the level above info) it costs nothing.
  const accessLog = accessLogEnabled(config);
  // Every route validates with the compiled TypeBox checks and writes bodies with JSON.stringify
  // (see below). Named here, in the constructor, so that fastify never loads its default Ajv and
  // fast-json-stringify compilers: they cost ~145 ms of the main thread's CPU at start.
  const serialize = (data: unknown): string => JSON.stringify(data);
  // fastify's types describe these factories as Ajv's and fast-json-stringify's; at run time each
  // only has to answer the route compiler, which is what these do.
  const compilersFactory = { buildValidator: () => validatorCompiler(), buildSerializer: () => () => serialize } as unknown as CompilersFactory;
  const tls = tlsFiles(config);
  const app = Fastify({
    // TLS (tls.ts): the pair read here, checked at start already; server.ts swaps in a renewed one.
    ...(tls === null ? {} : { https: readTlsPair(tls) }),
    schemaController: { compilersFactory },
    logger: {
      level: config.log_level,
      redact: ['req.headers.authorization', 'req.headers["api-key"]'],
    },
    // Request lines would cost more than a search on the hot path; failures are logged below.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger, bindings, opts) => new LazyChildLogger(logger, bindings, opts),
    bodyLimit: Math.floor(config.body_limit_mb * 1024 * 1024),
    // Collection names run to 255 characters (percent-encoded, up to three times that).
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: (err, req, reply) => {
      void reply.raw.writeHead(400, { 'content-type': 'application/json' });
      reply.raw.end(JSON.stringify(failure(`Bad request: ${err.message}`, performance.now())));
      // Answered before routing, so the onResponse hook below never sees it.
      if (accessLog) req.log.info(accessLine(req.method, undefined, req.url, 400, 0, undefined), 'access');
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Each schema compiles once here; a failure comes back as the QuiverError (400 format error or
  // 422 validation error) that the error handler turns into Qdrant's envelope.
  app.setValidatorCompiler(validatorCompiler());
  // Response schemas document the API (route-docs.ts); bodies are written as the handlers built
  // them, never filtered through a compiled serializer that would drop what a schema leaves open.
  app.setSerializerCompiler(() => serialize);
  // Bodies are JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  // An empty body under a JSON content type is no body on a route that takes none (curl examples
  // send the header on DELETE too, and Qdrant accepts it); a route with a body schema still says
  // the body is empty. Everything goes to fastify's own parser, which refuses __proto__ and
  // constructor keys.
  // Bodies nested deeper than MAX_JSON_DEPTH are refused here, as Qdrant's JSON parser refuses
  // them, so no recursive step later (validation, filters, prefetch trees) can run out of stack.
  // A handed-off route's body stays bytes: its coordinating worker parses it the same way
  // (src/workers/coordinator/rest-requests.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    if (req.routeOptions.config.handoff === true) {
      done(null, body);
      return;
    }
    metrics.mainThreadBody();
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '' && req.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    parseJson(req, text, (err, parsed) => {
      if (err === null && nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
        done(QuiverError.badInput(`Format error in JSON body: nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      } else done(err, parsed);
    });
  });
  app.decorateRequest('t0', 0);

  // Callback hooks, not async ones: every request runs them, and an async hook costs a promise
  // and a microtask turn each.
  app.addHook('onRequest', (req, _reply, done) => {
    req.t0 = performance.now();
    if (!engine.ready && !BEFORE_READY_PATHS.has(req.routeOptions.url ?? '')) done(QuiverError.precondition(ENGINE_NOT_INITIALIZED));
    else done();
  });
  if (cluster !== null) {
    // Cluster mode only: a node without its lease (paused past it, cut off from etcd) may hold
    // stale assignments, so it refuses the collections' routes until it has registered again.
    app.addHook('onRequest', (req, reply, done) => {
      if (!cluster.leaseHeld() && (req.routeOptions.url ?? '').startsWith('/collections')) {
        void reply.header('retry-after', String(cluster.retryAfterSeconds));
        done(new QuiverError('ShardUnavailable', cluster.notServingReason()));
      } else done();
    });
  }
  app.addHook('onResponse', (req, reply, done) => {
    const seconds = (performance.now() - (req.t0 || performance.now())) / 1000;
    const route = req.routeOptions.url;
    metrics.rest(req.method, route ?? 'unmatched', reply.statusCode, seconds, (req.params as { collection_name?: string } | undefined)?.collection_name);
    if (accessLog) req.log.info(accessLine(req.method, route, req.url, reply.statusCode, seconds, req.params), 'access');
    done();
  });
  // Before any route is registered: their onRoute hooks give each route its rule and its docs.
  installAuth(app, auth);
  installRouteDocs(app);

  app.setErrorHandler((err, req, reply) => {
    const f = toFailure(err);
    if (f.internal) req.log.error({ err }, f.message);
    else req.log.info({ status: f.status }, f.message);
    retryAfterFor(reply, f.status, err);
    void reply.code(f.status).send(failure(f.message, req.t0 || performance.now()));
  });

  app.setNotFoundHandler((req, reply) => {
    const t0 = req.t0 || performance.now();
    if (!engine.ready) return reply.code(412).send(failure(ENGINE_NOT_INITIALIZED, t0));
    return reply.code(404).send(failure(`Not found: ${req.method} ${req.url.split('?')[0]}`, t0));
  });

  // The OpenAPI document is built from the route schemas as they register (so first), served
  // at /openapi.json, with the interactive page at /docs; both are built on first request.
  installApiDocs(app);
  await app.register(dashboardRoutes);
  await app.register(healthRoutes, { engine });
  await app.register(metricsRoutes, { metrics });
  await app.register(telemetryRoutes, { engine, metrics, cluster });
  await app.register(issueRoutes, { engine });
  await app.register(clusterRoutes, { cluster, engine });
  await app.register(authRoutes, { auth });
  await app.register(collectionRoutes, { engine });
  await app.register(pointRoutes, { engine, coordinators, metrics });
  await app.register(unimplementedRoutes);
  return app;
}
