// The OpenAPI document is generated from the route schemas: every route the server registers
// appears in it, and the interactive page is served.

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
    // The permission table names every route the app registers (the auth matrix test keeps it so).
    const api = Object.keys(REST_ACCESS).filter((k) => !k.includes(' /docs') && !k.endsWith(' /openapi.json'));
    const missing = api.filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
    // Schemas come through: the upsert body is described, not an empty object.
    const upsert = r.body.paths['/collections/{collection_name}/points'].put;
    expect(JSON.stringify(upsert.requestBody)).toContain('points');
  });

  it('serves the interactive page', async () => {
    const r = await fetch(`${server.url}/docs/static/index.html`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('swagger');
  });
});
