// The OpenAPI document is generated from the route schemas: every route the server registers
// appears in it, it matches the committed copy (src/main/http/openapi.json: a change to the REST
// contract shows in review; `npm run openapi` rewrites it), and the interactive page is served.

import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_ACCESS } from '../../src/main/auth/permissions.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ shards: 1 });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('OpenAPI', () => {
  it('lists every registered API route with its method', async () => {
    const r = await call(server.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(r.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);
    }
    // The permission table names every route the app registers (the auth matrix test keeps it so);
    // the API description and the dashboard's files are pages, not API.
    const api = Object.keys(REST_ACCESS).filter((k) => !k.includes(' /docs') && !k.endsWith(' /openapi.json') && !k.includes(' /dashboard'));
    const missing = api.filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
    // Schemas come through: the upsert body is described, not an empty object.
    const upsert = r.body.paths['/collections/{collection_name}/points'].put;
    expect(JSON.stringify(upsert.requestBody)).toContain('points');
  });

  it('matches the committed copy', async () => {
    const file = resolve(import.meta.dirname, '..', '..', 'src', 'main', 'http', 'openapi.json');
    const served = (await call(server.url, 'GET', '/openapi.json')).body as Record<string, unknown>;
    if (process.env.QUIVER_WRITE_OPENAPI === '1') writeFileSync(file, JSON.stringify(served, null, 2) + '\n');
    const committed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(served, 'the REST contract changed: review it, then run `npm run openapi` to commit the new copy').toEqual(committed);
  });

  it('serves the interactive page', async () => {
    const r = await fetch(`${server.url}/docs/static/index.html`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('swagger');
  });

  // The pages are built at their first request (src/main/http/api-docs.ts) and answered through
  // a second fastify instance: the same documents, and this server's own not-found envelope.
  it('serves the document as JSON and YAML under /docs, and a missing page file as a 404 envelope', async () => {
    const json = await call(server.url, 'GET', '/docs/json');
    expect(json.status).toBe(200);
    expect(json.body).toEqual((await call(server.url, 'GET', '/openapi.json')).body);
    const yaml = await fetch(`${server.url}/docs/yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toContain('application/x-yaml');
    expect(await yaml.text()).toMatch(/^openapi: 3\./m);
    const css = await fetch(`${server.url}/docs/static/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    const missing = await call(server.url, 'GET', '/docs/static/no-such-file.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: { error: 'Not found: GET /docs/static/no-such-file.js' } });
    const redirect = await fetch(`${server.url}/docs/static/index.html`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/docs/');
  });
});
