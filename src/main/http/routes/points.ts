import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionNameParams, WaitQuery } from '../../../shared/schemas/common.js';
import { CountPoints, DeleteVectors, FacetRequest, PointIdParams, PointsSelector, RetrievePoints, ScrollPoints, UpdateVectors, UpsertPoints } from '../../../shared/schemas/points.js';
import { doDeletePoints, doGetPoint, doUpdateVectors } from '../../../workers/service/points.js';
import { doDeleteVectors } from '../../../workers/service/vectors.js';
import { doBatchUpdate } from '../../../workers/service/batch.js';
import { engineAt, restReadLevel } from '../../../shared/read-consistency.js';
import type { PointEngine } from '../../../shared/point-engine.js';
import { doFacet } from '../../../workers/service/facet.js';
import { UpdateOperations } from '../../../shared/schemas/batch.js';
import type { Engine } from '../../engine.js';
import { ok } from '../../../shared/envelope.js';
import { handoff, type HandoffDeps } from '../handoff.js';

const params = CollectionNameParams;
const querystring = WaitQuery;

/** A read's engine: at the log's end for a strong `consistency` in cluster mode (read-consistency.ts). */
function readAt(engine: Engine, query: unknown): PointEngine {
  return engineAt(engine, () => restReadLevel((query as { consistency?: unknown } | undefined)?.consistency));
}

// Upsert, retrieve, count and scroll are handed off whole to a coordinating worker (handoff.ts);
// the other point routes run here.
export const pointRoutes: FastifyPluginAsyncTypebox<{ engine: Engine } & HandoffDeps> = async (app, { engine, ...deps }) => {
  const upsert = handoff('PUT /collections/:collection_name/points', deps);
  app.put('/collections/:collection_name/points', { schema: { params, querystring, body: UpsertPoints }, ...upsert.opts }, upsert.handler);
  const retrieve = handoff('POST /collections/:collection_name/points', deps);
  app.post('/collections/:collection_name/points', { schema: { params, body: RetrievePoints }, ...retrieve.opts }, retrieve.handler);
  app.get('/collections/:collection_name/points/:id', { schema: { params: PointIdParams } }, async (req) =>
    ok(await doGetPoint(readAt(engine, req.query), req.params.collection_name, req.params.id), req.t0),
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
    ok(await doFacet(readAt(engine, req.query), req.params.collection_name, req.body), req.t0),
  );
  const count = handoff('POST /collections/:collection_name/points/count', deps);
  app.post('/collections/:collection_name/points/count', { schema: { params, body: CountPoints }, ...count.opts }, count.handler);
  const scroll = handoff('POST /collections/:collection_name/points/scroll', deps);
  app.post('/collections/:collection_name/points/scroll', { schema: { params, body: ScrollPoints }, ...scroll.opts }, scroll.handler);
};
