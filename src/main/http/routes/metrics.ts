import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { Metrics } from '../../metrics.js';

/** Qdrant's query: `per_collection=true` labels the request families by collection. */
const MetricsQuery = Type.Object({ per_collection: Type.Optional(Type.Boolean()) });

/** GET /metrics: Prometheus text exposition. Answered while the engine loads, as the health checks. */
export const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: Metrics }> = async (app, { metrics }) => {
  app.get('/metrics', { schema: { description: 'Prometheus metrics (text exposition format)', querystring: MetricsQuery } }, async (req, reply) => {
    const { body, contentType } = await metrics.scrape(req.query.per_collection === true);
    return reply.type(contentType).send(body);
  });
};
