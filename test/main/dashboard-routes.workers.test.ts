// The dashboard's static routes on the real server with auth enabled: the files are served
// without a credential, and no encoding of a path that starts with /dashboard reaches data
// without one (Qdrant once let /dashboard%2f..%2fcollections skip the API key check). Paths are
// sent byte for byte with node:http, because fetch would normalise the dot segments first.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, apiKeyHeader, createKey, login, setEnabled } from '../helpers/auth.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let key = '';
const SECRET = 'secret_collection_7';

/** One request with the path exactly as given. */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  server = await startServer({ shards: 1, env: { SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD } });
  const jwt = await login(server.url, ADMIN_PASSWORD);
  await setEnabled(server.url, jwt, true);
  key = (await createKey(server.url, jwt, { permission: 'read,write' })).api_key;
  expect((await call(server.url, 'PUT', `/collections/${SECRET}`, { vectors: { size: 2, distance: 'Dot' } }, apiKeyHeader(key))).status).toBe(200);
});

afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('dashboard files', () => {
  it('are served without a credential while auth is on, with their types and a strict CSP', async () => {
    const page = await raw('/dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<script type="module" src="app.js"></script>');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const js = await raw('/dashboard/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain('/auth/login');
    // The built script keeps the credential in memory only.
    expect(js.body).not.toMatch(/localStorage|sessionStorage|document\.cookie/);
    const css = await raw('/dashboard/style.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('/dashboard redirects to /dashboard/', async () => {
    const r = await raw('/dashboard');
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('/dashboard/');
  });

  it('a file that is not one of the routes is not served, and without a key the answer is 401', async () => {
    for (const path of ['/dashboard/app.ts', '/dashboard/index.html', '/dashboard/../package.json', '/dashboard/tsconfig.json', '/dashboard/x']) {
      const r = await raw(path);
      expect(r.status, path).toBe(401);
      expect(JSON.parse(r.body).status.error, path).toMatch(/credential|key|token|auth/i);
    }
  });
});

describe('encoded paths under /dashboard do not reach data without a key', () => {
  const PATHS = [
    '/dashboard%2f..%2fcollections',
    '/dashboard%2F..%2Fcollections',
    '/dashboard/..%2fcollections',
    '/dashboard%2f%2e%2e%2fcollections',
    '/dashboard/%2e%2e/collections',
    '/dashboard/%2E%2E/collections',
    '/dashboard/../collections',
    '/dashboard/./../collections',
    '/dashboard%252f..%252fcollections',
    '/dashboard/..;/collections',
    '/dashboard/..%5ccollections',
    '/dashboard\\..\\collections',
    '//dashboard/../collections',
    '/dashboard/app.js/../../collections',
    '/dashboard/app.js%2f..%2f..%2fcollections',
    `/dashboard%2f..%2fcollections%2f${SECRET}`,
    `/dashboard/%2e%2e/collections/${SECRET}`,
    '/dashboard%2f..%2fauth%2fapi_keys',
    '/dashboard/%2e%2e/auth/api_keys',
    '/dashboard/%2e%2e/metrics',
  ];

  it.each(PATHS)('%s', async (path) => {
    for (const headers of [{}, { 'api-key': 'not-a-real-key' }]) {
      const r = await raw(path, headers);
      // Refused for want of a credential (or a malformed request), never data.
      expect([400, 401], `${path}: ${r.status} ${r.body.slice(0, 200)}`).toContain(r.status);
      expect(r.body).not.toContain(SECRET);
      expect(r.body).not.toContain('"result"');
    }
  });

  it('the same data is there for a caller with the key, so the refusals above are the auth at work', async () => {
    const r = await raw('/collections', { 'api-key': key });
    expect(r.status).toBe(200);
    expect(r.body).toContain(SECRET);
    expect((await raw('/collections')).status).toBe(401);
  });
});
