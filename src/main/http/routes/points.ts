import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionNameParams, WaitQuery } from '../../../shared/schemas/common.js';
import { CountPoints, DeleteVectors, FacetRequest, PointIdParams, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints } from '../../../shared/schemas/points.js';
import { doCount, doDeletePoints, doGetPoint, doRetrieve, doScroll, doUpdateVectors, doUpsert } from '../../service/points.js';
import { doDeleteVectors } from '../../service/vectors.js';
import { doBatchUpdate } from '../../service/batch.js';
import { doFacet } from '../../service/facet.js';
import { UpdateOperations } from '../../../shared/schemas/batch.js';
import type { Engine } from '../../engine.js';
import { ok } from '../envelope.js';

const params = CollectionNameParams;
const querystring = WaitQuery;

export const pointRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  app.put('/collections/:collection_name/points', { schema: { params, querystring, body: UpsertPoints } }, async (req) =>
    ok(await doUpsert(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.post('/collections/:collection_name/points', { schema: { params, body: RetrievePoints } }, async (req) =>
    ok(await doRetrieve(engine, req.params.collection_name, req.body), req.t0),
  );
  app.get('/collections/:collection_name/points/:id', { schema: { params: PointIdParams } }, async (req) =>
    ok(await doGetPoint(engine, req.params.collection_name, req.params.id), req.t0),
  );
  app.post('/collections/:collection_name/points/delete', { schema: { params, querystring, body: PointsSelector } }, async (req) =>
    ok(await doDeletePoints(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.put('/collections/:collection_name/points/vectors', { schema: { params, querystring, body: UpdateVectors } }, async (req) =>
    ok(await doUpdateVectors(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.post('/collections/:collection_name/points/batch', { schema: { params, querystring, body: UpdateOperations } }, async (req) =>
    ok(await doBatchUpdate(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.post('/collections/:collection_name/points/vectors/delete', { schema: { params, querystring, body: DeleteVectors } }, async (req) =>
    ok(await doDeleteVectors(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.post('/collections/:collection_name/facet', { schema: { params, body: FacetRequest } }, async (req) =>
    ok(await doFacet(engine, req.params.collection_name, req.body), req.t0),
  );
  app.post('/collections/:collection_name/points/count', { schema: { params, body: CountPoints } }, async (req) =>
    ok(await doCount(engine, req.params.collection_name, req.body), req.t0),
  );
  app.post('/collections/:collection_name/points/scroll', { schema: { params, body: ScrollPoints } }, async (req) =>
    ok(await doScroll(engine, req.params.collection_name, req.body), req.t0),
  );
};
