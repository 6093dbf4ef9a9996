// buildApp assembles the REST server without listening, so tests can inject() and main can
// listen. One error handler and one not-found handler make every failure, fastify's own too,
// a spec envelope; one onRequest hook gates everything but health checks on readiness.

import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ENGINE_NOT_INITIALIZED, QuiverError } from '../../shared/errors.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine.js';
import { failure, toFailure } from './envelope.js';
import { collectionRoutes } from './routes/collections.js';
import { HEALTH_PATHS, healthRoutes } from './routes/health.js';
import { payloadRoutes } from './routes/payload.js';
import { pointRoutes } from './routes/points.js';
import { searchRoutes } from './routes/search.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() at arrival, for the envelope's `time`. */
    t0: number;
  }
}

export async function buildApp(config: Config, engine: Engine): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.log_level,
      redact: ['req.headers.authorization', 'req.headers["api-key"]'],
    },
    // Request lines would cost more than a search on the hot path; failures are logged below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: Math.floor(config.body_limit_mb * 1024 * 1024),
    // Collection names run to 255 characters (percent-encoded, up to three times that).
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: (err, _req, reply) => {
      void reply.raw.writeHead(400, { 'content-type': 'application/json' });
      reply.raw.end(JSON.stringify(failure(`Bad request: ${err.message}`, performance.now())));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // Bodies are JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('t0', 0);

  app.addHook('onRequest', async (req) => {
    req.t0 = performance.now();
    if (!engine.ready && !HEALTH_PATHS.has(req.routeOptions.url ?? '')) throw QuiverError.precondition(ENGINE_NOT_INITIALIZED);
  });

  app.setErrorHandler((err, req, reply) => {
    const f = toFailure(err);
    if (f.internal) req.log.error({ err }, f.message);
    else req.log.info({ status: f.status }, f.message);
    void reply.code(f.status).send(failure(f.message, req.t0 || performance.now()));
  });

  app.setNotFoundHandler((req, reply) => {
    const t0 = req.t0 || performance.now();
    if (!engine.ready) return reply.code(412).send(failure(ENGINE_NOT_INITIALIZED, t0));
    return reply.code(404).send(failure(`Not found: ${req.method} ${req.url.split('?')[0]}`, t0));
  });

  await app.register(healthRoutes, { engine });
  await app.register(collectionRoutes, { engine });
  await app.register(pointRoutes, { engine });
  await app.register(searchRoutes, { engine });
  await app.register(payloadRoutes, { engine });
  return app;
}
