// The REST hook on a bare fastify app (inject, no workers): table lookup at registration,
// refusal of routes without a rule, checks before the body is read, 404 handling.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../../src/main/auth/context.js';
import { installAuth, registeredRoutes } from '../../../src/main/auth/http.js';
import { AuthService } from '../../../src/main/auth/service.js';
import { toFailure } from '../../../src/shared/envelope.js';
import { openAuthDb, openDb, type QuiverDb } from '../../../src/shared/db.js';
import { removeDir, tempDataDir } from '../../helpers/server.js';

const PW = 'Correct-Horse-9';
const dir = tempDataDir();
let db: QuiverDb;
let auth: AuthService;
let jwt: string;
let readKey: string;
let writeKey: string;
let parsed = 0;

function build() {
  const app = Fastify({ logger: false }).withTypeProvider<TypeBoxTypeProvider>();
  installAuth(app, auth);
  app.setErrorHandler((err, _req, reply) => {
    const f = toFailure(err);
    void reply.code(f.status).send({ message: f.message });
  });
  app.addContentTypeParser('application/x-probe', { parseAs: 'string' }, (_req, body, done) => {
    parsed++;
    done(null, body);
  });
  app.get('/healthz', async () => 'ok');
  app.get('/collections', async () => ({ ok: true }));
  app.post('/collections/:name/points/count', async () => ({ counted: true }));
  app.get('/debug/secret-dump', async () => ({ leaked: true }));
  app.route({ method: ['GET', 'POST'], url: '/collections/:name/exists', handler: async () => ({ mixed: true }) });
  return app;
}

beforeAll(async () => {
  db = openDb(dir);
  auth = await AuthService.open(openAuthDb(db.root), { jwtTtlSeconds: 600, adminPassword: PW });
  jwt = (await auth.doLogin('x', 'admin', PW)).token;
  const ctx = { authEnabled: true, principal: { kind: 'admin_jwt', jti: '' } } as const;
  await auth.doSetEnabled(ctx, true);
  readKey = (await auth.doCreateApiKey(ctx, { name: 'r', permission: 'read' })).api_key;
  writeKey = (await auth.doCreateApiKey(ctx, { name: 'w', permission: 'write' })).api_key;
});

afterAll(async () => {
  await db.root.close();
  removeDir(dir);
});

describe('installAuth', () => {
  it('records every route with its rule, and none for routes missing from the table', async () => {
    const app = build();
    await app.ready();
    const routes = registeredRoutes(app).map((r) => `${r.method} ${r.url} ${r.access ?? 'NONE'}`);
    expect(routes).toContain('GET /collections list');
    expect(routes).toContain('HEAD /collections list');
    expect(routes).toContain('POST /collections/:name/points/count read');
    expect(routes).toContain('GET /debug/secret-dump NONE');
    // One route, two methods with different rules: refused as a whole.
    expect(routes).toContain('POST /collections/:name/exists NONE');
    expect(routes).toContain('GET /collections/:name/exists NONE');
    await app.close();
  });

  it('refuses a route without a rule to everyone, even an admin JWT, with auth enabled or disabled', async () => {
    const app = build();
    for (const enabled of [false, true]) {
      await auth.doSetEnabled({ authEnabled: enabled, principal: ANONYMOUS }, enabled);
      for (const headers of [{}, { authorization: `Bearer ${jwt}` }]) {
        const res = await app.inject({ method: 'GET', url: '/debug/secret-dump', headers });
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain('leaked');
      }
      const mixed = await app.inject({ method: 'GET', url: '/collections/a/exists', headers: { authorization: `Bearer ${jwt}` } });
      expect(mixed.statusCode).toBe(403);
    }
    await app.close();
  });

  it('checks before the body is parsed', async () => {
    const app = build();
    const before = parsed;
    const refused = await app.inject({
      method: 'POST',
      url: '/collections/a/points/count',
      headers: { 'content-type': 'application/x-probe', 'api-key': writeKey },
      payload: 'x'.repeat(10_000),
    });
    expect(refused.statusCode).toBe(403);
    expect(parsed).toBe(before);
    const unauth = await app.inject({ method: 'POST', url: '/collections/a/points/count', headers: { 'content-type': 'application/x-probe' }, payload: 'x' });
    expect(unauth.statusCode).toBe(401);
    expect(unauth.headers['www-authenticate']).toBe('Bearer realm="quiver"');
    expect(parsed).toBe(before);
    const allowed = await app.inject({
      method: 'POST',
      url: '/collections/a/points/count',
      headers: { 'content-type': 'application/x-probe', 'api-key': readKey },
      payload: 'x',
    });
    expect(allowed.statusCode).toBe(200);
    expect(parsed).toBe(before + 1);
    await app.close();
  });

  it('answers unknown routes 401 without a credential and 404 with one (auth enabled)', async () => {
    const app = build();
    expect((await app.inject({ method: 'GET', url: '/nowhere' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/nowhere', headers: { 'api-key': writeKey } })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/collections' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'HEAD', url: '/collections', headers: { 'api-key': readKey } })).statusCode).toBe(200);
    await app.close();
  });
});
