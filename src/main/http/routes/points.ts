// Every point route, registered from the registry (src/shared/point-ops.ts) in its order: a
// route coordinated in a worker is handed off whole (handoff.ts), its body checked only there;
// a route the main thread coordinates (field index and vector name changes) runs here over the Engine.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { POINT_OPS, routeParts, type MainRoute, type PointRoute } from '../../../shared/point-ops.js';
import type { CreateFieldIndex } from '../../../shared/schemas/payload.js';
import { ok } from '../../../shared/envelope.js';
import type { Engine } from '../../engine.js';
import { doCreateIndex, doDeleteIndex } from '../../service/indexes.js';
import { doCreateVectorName, doDeleteVectorName } from '../../service/vector-names.js';
import type { VectorNameConfig } from '../../../shared/schemas/collections.js';
import { handoff, type HandoffDeps } from '../handoff.js';

interface Req {
  params: Record<string, string>;
  query: { wait?: boolean };
  body: unknown;
  t0: number;
}

const C = '/collections/:collection_name';

/** The routes this thread serves itself: each one's result, from the checked request. */
const MAIN: { [R in MainRoute]: (engine: Engine, req: Req) => Promise<unknown> } = {
  [`PUT ${C}/index`]: (e, r) => doCreateIndex(e, r.params.collection_name!, r.body as Static<typeof CreateFieldIndex>, r.query.wait === true),
  [`DELETE ${C}/index/:field_name`]: (e, r) => doDeleteIndex(e, r.params.collection_name!, r.params.field_name!, r.query.wait === true),
  [`PUT ${C}/vectors/:vector_name`]: (e, r) => doCreateVectorName(e, r.params.collection_name!, r.params.vector_name!, r.body as VectorNameConfig, r.query.wait === true),
  [`DELETE ${C}/vectors/:vector_name`]: (e, r) => doDeleteVectorName(e, r.params.collection_name!, r.params.vector_name!, r.query.wait === true),
};

function isMain(route: PointRoute): route is MainRoute {
  return POINT_OPS[route].coordinated === 'main';
}

export const pointRoutes: FastifyPluginAsyncTypebox<{ engine: Engine } & HandoffDeps> = async (app, { engine, ...deps }) => {
  for (const route of Object.keys(POINT_OPS) as PointRoute[]) {
    const spec = POINT_OPS[route];
    const { method, url } = routeParts(route);
    const schema = {
      params: spec.params,
      ...(spec.querystring === null ? {} : { querystring: spec.querystring }),
      ...(spec.body === null ? {} : { body: spec.body }),
    };
    if (isMain(route)) {
      const serve = MAIN[route];
      app.route({ method, url, schema, handler: async (req: FastifyRequest) => ok(await serve(engine, req as unknown as Req), req.t0) });
    } else {
      const h = handoff(route, deps);
      app.route({ method, url, schema, ...h.opts, handler: h.handler });
    }
  }
};
