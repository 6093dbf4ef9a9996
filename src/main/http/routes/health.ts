import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Engine } from '../../engine.js';
import { BUILD_COMMIT, QDRANT_API_VERSION, TITLE } from '../../version.js';

/** Paths answered before the engine is ready (the health checks, and the metrics that watch a load). */
export const BEFORE_READY_PATHS = new Set(['/', '/healthz', '/livez', '/readyz', '/metrics']);

export const healthRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  // Exactly Qdrant's three fields: `version` is the API version clients check for compatibility.
  app.get('/', async () => ({ title: TITLE, version: QDRANT_API_VERSION, commit: BUILD_COMMIT }));
  app.get('/healthz', async (_req, reply) => reply.type('text/plain').send('healthz check passed'));
  app.get('/livez', async (_req, reply) => reply.type('text/plain').send('healthz check passed'));
  app.get('/readyz', async (_req, reply) => {
    if (engine.ready) return reply.type('text/plain').send('all shards are ready');
    // What the workers publish while they load (dispatcher.ts's LoadProgress).
    const p = engine.loadProgress();
    const progress =
      p === null
        ? ''
        : `: loading shards, ${p.shardsLoaded}/${p.workersCounting > 0 ? '?' : p.shardsTotal} shards loaded, ${p.points} points read`;
    return reply.code(503).type('text/plain').send(`some shards are not ready${progress}`);
  });
};
