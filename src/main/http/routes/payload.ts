import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CollectionNameParams, WaitQuery } from '../../../shared/schemas/common.js';
import { ClearPayload, CreateFieldIndex, DeletePayload, FieldNameParams, SetPayload } from '../../../shared/schemas/payload.js';
import { doCreateIndex, doDeleteIndex } from '../../service/indexes.js';
import { doClearPayload, doDeletePayload, doOverwritePayload, doSetPayload } from '../../../workers/service/payload.js';
import type { Engine } from '../../engine.js';
import { ok } from '../../../shared/envelope.js';

const params = CollectionNameParams;
const querystring = WaitQuery;

export const payloadRoutes: FastifyPluginAsyncTypebox<{ engine: Engine }> = async (app, { engine }) => {
  app.post('/collections/:collection_name/points/payload', { schema: { params, querystring, body: SetPayload } }, async (req) =>
    ok(await doSetPayload(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.put('/collections/:collection_name/points/payload', { schema: { params, querystring, body: SetPayload } }, async (req) =>
    ok(await doOverwritePayload(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.post('/collections/:collection_name/points/payload/delete', { schema: { params, querystring, body: DeletePayload } }, async (req) =>
    ok(await doDeletePayload(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.post('/collections/:collection_name/points/payload/clear', { schema: { params, querystring, body: ClearPayload } }, async (req) =>
    ok(await doClearPayload(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.put('/collections/:collection_name/index', { schema: { params, querystring, body: CreateFieldIndex } }, async (req) =>
    ok(await doCreateIndex(engine, req.params.collection_name, req.body, req.query.wait === true), req.t0),
  );
  app.delete('/collections/:collection_name/index/:field_name', { schema: { params: FieldNameParams, querystring } }, async (req) =>
    ok(await doDeleteIndex(engine, req.params.collection_name, req.params.field_name, req.query.wait === true), req.t0),
  );
};
