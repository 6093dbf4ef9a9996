// The search and query routes: all handed off whole to a coordinating worker (handoff.ts), which
// runs doSearch / doSearchBatch / doQuery / doQueryBatch (src/workers/coordinator/rest-requests.ts).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionNameParams } from '../../../shared/schemas/common.js';
import { QueryBatch, QueryRequest, SearchBatch, SearchRequest } from '../../../shared/schemas/search.js';
import { handoff, type HandoffDeps } from '../handoff.js';

const params = CollectionNameParams;

export const searchRoutes: FastifyPluginAsyncTypebox<HandoffDeps> = async (app, deps) => {
  const h = (route: Parameters<typeof handoff>[0]) => handoff(route, deps);
  const search = h('POST /collections/:collection_name/points/search');
  app.post('/collections/:collection_name/points/search', { schema: { params, body: SearchRequest }, ...search.opts }, search.handler);
  const searchBatch = h('POST /collections/:collection_name/points/search/batch');
  app.post('/collections/:collection_name/points/search/batch', { schema: { params, body: SearchBatch }, ...searchBatch.opts }, searchBatch.handler);
  const query = h('POST /collections/:collection_name/points/query');
  app.post('/collections/:collection_name/points/query', { schema: { params, body: QueryRequest }, ...query.opts }, query.handler);
  const queryBatch = h('POST /collections/:collection_name/points/query/batch');
  app.post('/collections/:collection_name/points/query/batch', { schema: { params, body: QueryBatch }, ...queryBatch.opts }, queryBatch.handler);
};
