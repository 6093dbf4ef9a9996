// The web dashboard: a static page, its stylesheet and its script, each on a route of its own.
// There is deliberately no wildcard or prefix route: the auth table names each file (one line a
// route), so an encoded path such as /dashboard%2f..%2fcollections can only ever match one of
// these fixed routes or none (and then it meets the authenticated not-found handler).
//
// The files are read once at registration, from the build in dist/src/dashboard
// (config/dashboard-bundle.mjs: the bundled app.js, index.html and style.css copied beside it), so
// that dist/ alone serves the dashboard, as the Docker image and the npm package carry it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PROJECT_ROOT } from '../../config.js';

/** The routes and the file each serves; permissions.ts has one `public` line for each. */
export const DASHBOARD_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/dashboard/': { file: 'dist/src/dashboard/index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/style.css': { file: 'dist/src/dashboard/style.css', type: 'text/css; charset=utf-8' },
  '/dashboard/app.js': { file: 'dist/src/dashboard/app.js', type: 'text/javascript; charset=utf-8' },
};

// The page loads only its own script and stylesheet and talks only to this server; it keeps the
// credential in memory, so no script from elsewhere may run beside it.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function load(file: string): Buffer | null {
  try {
    return readFileSync(join(PROJECT_ROOT, file));
  } catch {
    return null;
  }
}

export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/dashboard', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/dashboard/'));
  for (const [url, { file, type }] of Object.entries(DASHBOARD_FILES)) {
    const body = load(file);
    if (body === null) app.log.warn({ file }, 'dashboard file missing (run npm run build); its route answers 503');
    app.get(url, { schema: { hide: true } }, async (_req, reply) => {
      if (body === null) return reply.code(503).type('text/plain; charset=utf-8').send(`dashboard not built: ${file} is missing (run npm run build)`);
      return reply
        .type(type)
        .header('content-security-policy', CSP)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .send(body);
    });
  }
};
