import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Engine } from '../../engine.js';
import { QDRANT_API_VERSION, QUIVER_VERSION } from '../../version.js';

/** Paths answered before the engine is ready (the health checks, and the metrics that watch a load). */
export const BEFORE_READY_PATHS = new Set(['/', '/healthz', '/livez', '/readyz', '/metrics']);

export const healthRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  app.get('/', async () => ({ title: 'quiver - vector search engine', version: QDRANT_API_VERSION, quiver_version: QUIVER_VERSION }));
  app.get('/healthz', async (_req, reply) => reply.type('text/plain').send('healthz check passed'));
  app.get('/livez', async (_req, reply) => reply.type('text/plain').send('healthz check passed'));
  app.get('/readyz', async (_req, reply) =>
    engine.ready
      ? reply.type('text/plain').send('all shards are ready')
      : reply.code(503).type('text/plain').send('some shards are not ready'),
  );
};
