import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Metrics } from '../../metrics.js';

/** GET /metrics: Prometheus text exposition. Answered while the engine loads, as the health checks. */
export const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.get('/metrics', { schema: { description: 'Prometheus metrics (text exposition format)' } }, async (_req, reply) => {
    const { body, contentType } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
};
