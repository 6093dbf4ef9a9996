import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionNameParams } from '../../../shared/schemas/common.js';
import { QueryBatch, QueryRequest, SearchBatch, SearchRequest } from '../../../shared/schemas/search.js';
import { doQuery, doQueryBatch } from '../../service/query.js';
import { doSearch, doSearchBatch } from '../../service/search.js';
import type { Engine } from '../../engine.js';
import { ok } from '../envelope.js';

const params = CollectionNameParams;

export const searchRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  app.post('/collections/:collection_name/points/search', { schema: { params, body: SearchRequest } }, async (req) =>
    ok(await doSearch(engine, req.params.collection_name, req.body), req.t0),
  );
  app.post('/collections/:collection_name/points/search/batch', { schema: { params, body: SearchBatch } }, async (req) =>
    ok(await doSearchBatch(engine, req.params.collection_name, req.body.searches), req.t0),
  );
  app.post('/collections/:collection_name/points/query', { schema: { params, body: QueryRequest } }, async (req) =>
    ok(await doQuery(engine, req.params.collection_name, req.body), req.t0),
  );
  app.post('/collections/:collection_name/points/query/batch', { schema: { params, body: QueryBatch } }, async (req) =>
    ok(await doQueryBatch(engine, req.params.collection_name, req.body.searches), req.t0),
  );
};
