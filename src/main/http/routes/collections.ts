import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionNameParams } from '../../../shared/schemas/common.js';
import { CreateCollection, OptimizationsQuery, UpdateCollection } from '../../../shared/schemas/collections.js';
import {
  doCollectionExists,
  doCreateCollection,
  doDeleteCollection,
  doGetCollection,
  doListCollections,
  doUpdateCollection,
} from '../../service/collections.js';
import type { Engine } from '../../engine.js';
import { doOptimizations } from '../../service/optimizations.js';
import { ok } from '../../../shared/envelope.js';
import { visibleTo } from '../../auth/authorize.js';
import { authOf } from '../../auth/http.js';

const params = CollectionNameParams;

export const collectionRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  app.get('/collections', async (req) => ok(doListCollections(engine, visibleTo(authOf(req))), req.t0));
  app.get('/collections/:collection_name', { schema: { params } }, async (req) =>
    ok(await doGetCollection(engine, req.params.collection_name), req.t0),
  );
  app.put('/collections/:collection_name', { schema: { params, body: CreateCollection } }, async (req) =>
    ok(await doCreateCollection(engine, req.params.collection_name, req.body), req.t0),
  );
  app.patch('/collections/:collection_name', { schema: { params, body: UpdateCollection } }, async (req) =>
    ok(await doUpdateCollection(engine, req.params.collection_name, req.body), req.t0),
  );
  app.delete('/collections/:collection_name', { schema: { params } }, async (req) =>
    ok(await doDeleteCollection(engine, req.params.collection_name), req.t0),
  );
  app.get('/collections/:collection_name/exists', { schema: { params } }, async (req) =>
    ok(doCollectionExists(engine, req.params.collection_name), req.t0),
  );
  app.get('/collections/:collection_name/optimizations', { schema: { params, querystring: OptimizationsQuery } }, async (req) =>
    ok(await doOptimizations(engine, req.params.collection_name, req.query), req.t0),
  );
};
