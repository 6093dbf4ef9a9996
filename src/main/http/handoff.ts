// The main thread's half of a handed-off REST request: the route is matched, readiness and auth
// checked (onRequest hooks, before the body is read), path parameters and query string checked
// against their schemas; then the raw body bytes go in one message to a coordinating worker,
// which answers with the finished response, and this writes it back. The body schema stays
// declared on the route, so the OpenAPI document is unchanged, but it is checked only by the
// coordinator (src/workers/coordinator/rest-requests.ts), never twice.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { HandoffRoute } from '../../shared/point-ops.js';
import type { Metrics } from '../metrics.js';
import type { Coordinators } from '../router/dispatcher.js';
import { validatorCompiler } from '../../shared/validation.js';
import { PROBE_ON, probeRecord } from '../../shared/latency-probe.js';
import { retryAfterFor } from '../../shared/envelope.js';
import { scopeOf } from '../auth/authorize.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is handed off as raw bytes: app.ts's JSON parser leaves it unparsed. */
    handoff?: boolean;
  }
}

const checkUrlParts = validatorCompiler();

/**
 * Path parameters and query string as every route checks them; the body passes through as bytes.
 * A value that already has the schema's types (a collection name, an empty query) is taken as it
 * is: converting text to the schema's types is the costly step, and needed only for the rest
 * (`?wait=true`). The hand-off routes' URL schemas hold strings and booleans only, for which the
 * shortcut cannot change a value.
 */
function handoffValidatorCompiler(opts: { schema: unknown; httpPart?: string }): (data: unknown) => { value: unknown } | { error: Error } {
  if (opts.httpPart === 'body') return (data) => ({ value: data });
  const typed = Compile(opts.schema as TSchema);
  const full = checkUrlParts(opts);
  return (data) => (typed.Check(data) ? { value: data } : full(data));
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
      const sent = PROBE_ON ? performance.now() : 0;
      // A tenant-bound credential's binding goes with the request: the coordinator applies it.
      const tenant = req.auth?.tenant;
      const scope = scopeOf(req.auth);
      const { reply: out, worker } = await coordinators.handoff({
        route,
        params: req.params as Record<string, unknown>,
        query: (req.query ?? {}) as Record<string, unknown>,
        body,
        t0: performance.timeOrigin + req.t0,
        ...(tenant === undefined ? {} : { tenant }),
        ...(scope === undefined ? {} : { scope }),
      });
      metrics.coordinated(worker);
      if (PROBE_ON) {
        probeRecord('req-before-handoff', sent - req.t0);
        probeRecord(`req-handoff-w${worker}`, performance.now() - sent);
      }
      // As the error handler logs the failures it answers (app.ts).
      if (out.failure?.internal === true) req.log.error({ worker, status: out.status }, out.failure.message);
      else if (out.failure !== undefined) req.log.info({ status: out.status }, out.failure.message);
      if (out.retryAfter !== undefined) void reply.header('retry-after', String(out.retryAfter));
      retryAfterFor(reply, out.status);
      const bytes = typeof out.body === 'string' ? out.body : Buffer.from(out.body.buffer, out.body.byteOffset, out.body.byteLength);
      await reply.code(out.status).header('content-type', 'application/json; charset=utf-8').send(bytes);
      if (PROBE_ON) probeRecord('req-total', performance.now() - req.t0);
    },
  };
}
