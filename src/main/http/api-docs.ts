// The API description: /openapi.json and the interactive page under /docs, built on first request.
//
// @fastify/swagger and @fastify/swagger-ui (with @fastify/static, yaml and their resolvers) cost
// the main thread ~100 ms of CPU when registered at boot, on the way to /readyz, for pages that
// most starts never serve. So the app registers only the pages' routes (the same paths the two
// plugins register, each with its line in the permission table) and records every documented
// route as it registers; the first request to one of the pages builds a second, never-listening
// fastify instance with both plugins and those routes re-added, and every page request is
// answered by that instance (inject). Its document is the one the plugins would have built on
// the app itself: the same route options (seen after route-docs.ts's hook), the same plugin
// options (the drift test test/main/openapi.workers.test.ts compares it with the committed copy).

import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type HTTPMethods, type RouteOptions } from 'fastify';
import { QUIVER_VERSION } from '../version.js';
import { TAGS } from './route-docs.js';

/** The paths @fastify/swagger-ui registers under its prefix, and the document's own. */
export const DOCS_PREFIX = '/docs';
const PAGES = ['/openapi.json', DOCS_PREFIX, `${DOCS_PREFIX}/`, `${DOCS_PREFIX}/json`, `${DOCS_PREFIX}/yaml`, `${DOCS_PREFIX}/static/index.html`, `${DOCS_PREFIX}/static/swagger-initializer.js`, `${DOCS_PREFIX}/static/*`];

/** What @fastify/swagger reads of a route. */
interface Documented {
  method: RouteOptions['method'];
  url: string;
  schema: RouteOptions['schema'];
  config: RouteOptions['config'];
}


/** Request headers not passed to the pages' instance: they describe this connection. */
const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);
/** Response headers not copied back: this server's reply sets its own. */
const OWN = new Set(['content-length', 'connection', 'date', 'transfer-encoding', 'keep-alive']);

/** The pages' instance's error answer (fastify's `{statusCode, code, message}`) as the error it was. */
function pageError(status: number, body: string): Error {
  let message = body;
  let code: unknown;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; code?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
    code = parsed.code;
  } catch {
    // not JSON: the body is the message
  }
  return Object.assign(new Error(message), { statusCode: status, ...(typeof code === 'string' ? { code } : {}) });
}

/** The instance serving the pages, with the documented routes and both plugins. */
async function buildPages(routes: readonly Documented[]): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([import('@fastify/swagger'), import('@fastify/swagger-ui')]);
  // Nothing validates or serializes here: the routes re-added only describe the app's.
  const pages = Fastify({ logger: false });
  pages.setValidatorCompiler(() => () => true);
  pages.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await pages.register(swagger, {
    openapi: {
      info: { title: 'Quiver', description: "A vector database speaking Qdrant's REST API", version: QUIVER_VERSION },
      tags: [...TAGS],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'api-key' } } },
    },
  });
  await pages.register(swaggerUi, { routePrefix: DOCS_PREFIX });
  pages.get('/openapi.json', { schema: { hide: true } }, async () => pages.swagger());
  for (const r of routes) {
    // Without the HEAD twin fastify would add (the app's HEAD routes are not recorded either).
    pages.route({ method: r.method, url: r.url, ...(r.schema === undefined ? {} : { schema: r.schema }), ...(r.config === undefined ? {} : { config: r.config }), exposeHeadRoute: false, handler: async () => null });
  }
  await pages.ready();
  return pages;
}

/**
 * Call before any documented route registers (after route-docs.ts's hook, which completes each
 * route's schema): records the routes and registers the pages' routes.
 */
export function installApiDocs(app: FastifyInstance): void {
  const routes: Documented[] = [];
  app.addHook('onRoute', (opts) => {
    if (opts.method === 'HEAD' || opts.schema?.hide === true) return;
    routes.push({ method: opts.method, url: opts.url, schema: opts.schema, config: opts.config });
  });
  let pages: Promise<FastifyInstance> | null = null;
  const serve = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    // Built once; a failed build is tried again by the next request.
    pages ??= buildPages(routes).catch((err: unknown) => {
      pages = null;
      throw err;
    });
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
    const res = await (await pages).inject({ method: req.method as HTTPMethods, url: req.url, headers });
    // A file the page does not have: this app's not-found answer, as @fastify/static gave it here.
    if (res.statusCode === 404) {
      reply.callNotFound();
      return reply;
    }
    // Any other failure reaches this app's error handler, as the plugins' errors did.
    if (res.statusCode >= 400) throw pageError(res.statusCode, res.body);
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !OWN.has(k)) void reply.header(k, v);
    return reply.code(res.statusCode).send(res.rawPayload.length === 0 ? undefined : res.rawPayload);
  };
  for (const url of PAGES) app.get(url, { schema: { hide: true } }, serve);
}
