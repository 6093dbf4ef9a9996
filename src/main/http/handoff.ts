// The main thread's half of a handed-off REST request: the route is matched, readiness and auth
// checked (onRequest hooks, before the body is read), path parameters and query string checked
// against their schemas; then the raw body bytes go in one message to a coordinating worker,
// which answers with the finished response, and this writes it back. The body schema stays
// declared on the route, so the OpenAPI document is unchanged, but it is checked only by the
// coordinator (src/main/coordinator/requests.ts), never twice.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandoffRoute } from '../../shared/protocol.js';
import type { Metrics } from '../metrics.js';
import type { Coordinators } from '../router/dispatcher.js';
import { validatorCompiler } from '../validation.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is handed off as raw bytes: app.ts's JSON parser leaves it unparsed. */
    handoff?: boolean;
  }
}

const checkUrlParts = validatorCompiler();

/** Path parameters and query string as every route checks them; the body passes through as bytes. */
function handoffValidatorCompiler(opts: { schema: unknown; httpPart?: string }): (data: unknown) => { value: unknown } | { error: Error } {
  if (opts.httpPart === 'body') return (data) => ({ value: data });
  return checkUrlParts(opts);
}

export interface HandoffDeps {
  coordinators: Coordinators;
  metrics: Metrics;
}

/** Route options and handler for `route` (a HANDOFF_ROUTES name, so the coordinator knows it). */
export function handoff(route: HandoffRoute, { coordinators, metrics }: HandoffDeps) {
  return {
    opts: { config: { handoff: true }, validatorCompiler: handoffValidatorCompiler },
    handler: async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const body = req.body instanceof Uint8Array ? req.body : null;
      const { reply: out, worker } = await coordinators.handoff({
        route,
        params: req.params as Record<string, unknown>,
        query: (req.query ?? {}) as Record<string, unknown>,
        body,
        t0: performance.timeOrigin + req.t0,
      });
      metrics.coordinated(worker);
      if (out.internal !== undefined) req.log.error({ worker }, out.internal);
      else if (out.status >= 400) req.log.info({ status: out.status }, out.body);
      await reply.code(out.status).header('content-type', 'application/json; charset=utf-8').send(out.body);
    },
  };
}
