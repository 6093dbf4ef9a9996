// The REST side of auth: one onRoute hook gives every route its rule from the permission table
// when it is registered, and one onRequest hook checks each request against it, before the body
// is read. A route without a rule is refused (403) for everyone, never open. The hooks sit on
// the root instance, so they cover every plugin registered after installAuth.

import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyTypeProvider, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger } from 'fastify';
import { QuiverError } from '../../shared/errors.js';
import type { AuthContext } from './context.js';
import { restAccess, type Access } from './permissions.js';
import type { AuthService } from './service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's rule from REST_ACCESS, set at registration; undefined means refused. */
    access?: Access | undefined;
  }
  interface FastifyRequest {
    /** Who the request is, set by the auth hook before anything else reads the request. */
    auth: AuthContext | null;
  }
}

export interface RouteAccess {
  method: string;
  url: string;
  access: Access | undefined;
}

type App<P extends FastifyTypeProvider> = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, P>;

const registries = new WeakMap<object, RouteAccess[]>();

/** Every route registered on the app, with its rule (for the route x credential matrix test). */
export function registeredRoutes(app: object): readonly RouteAccess[] {
  return registries.get(app) ?? [];
}

/** The request's AuthContext; the hook sets it on every request that reaches a handler. */
export function authOf(req: { auth: AuthContext | null }): AuthContext {
  if (req.auth === null) throw QuiverError.internal('request reached a handler without an auth context');
  return req.auth;
}

/** How long a refused request's body is read and dropped before its connection is closed. */
const LINGER_MS = 2_000;

/**
 * A refused request's body is never parsed. What the client still sends is read and dropped for
 * LINGER_MS (so a client in the middle of an upload can read the answer, which is sent at once,
 * rather than lose it to a reset), then the connection is closed, so a refused upload cannot go
 * on. A body that ends sooner leaves the connection open for the next request.
 */
function discardThenClose(raw: IncomingMessage): void {
  if (raw.complete) return;
  const timer = setTimeout(() => void raw.socket?.destroy(), LINGER_MS);
  timer.unref();
  const done = (): void => clearTimeout(timer);
  raw.on('data', () => undefined);
  raw.once('end', done);
  raw.once('close', done);
}

export function installAuth<P extends FastifyTypeProvider>(app: App<P>, auth: AuthService): void {
  const routes: RouteAccess[] = [];
  registries.set(app, routes);
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (opts) => {
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    const rules = methods.map((m) => restAccess(m, opts.url));
    // One handler for several methods gets one rule: the methods must agree, or it is refused.
    const access = rules.every((r) => r === rules[0]) ? rules[0] : undefined;
    for (const m of methods) routes.push({ method: m, url: opts.url, access });
    if (access === undefined) {
      app.log.error({ method: opts.method, url: opts.url }, 'route has no rule in src/main/auth/permissions.ts; every request to it is refused');
    }
    opts.config = { ...opts.config, access };
  });

  app.addHook('onRequest', async (req, reply) => {
    const access: Access | undefined = req.is404 ? 'authenticated' : req.routeOptions.config.access;
    try {
      if (access === undefined) throw QuiverError.forbidden(`${req.method} ${req.routeOptions.url ?? ''} has no access rule`);
      // A route about one collection names it in its path: a scoped credential is decided on it.
      const params = req.params as Record<string, unknown> | undefined;
      const collection = typeof params?.['collection_name'] === 'string' ? params['collection_name'] : null;
      req.auth = await auth.guard(
        access,
        (name) => {
          const v = req.headers[name];
          return Array.isArray(v) ? v[0] : v;
        },
        collection,
      );
    } catch (err) {
      if (err instanceof QuiverError && err.code === 'Unauthorized') void reply.header('www-authenticate', 'Bearer realm="quiver"');
      discardThenClose(req.raw);
      throw err;
    }
  });
}
