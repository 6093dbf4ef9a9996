// The route x credential matrix (issue 4). The routes are the ones the app registers (built
// in-process from the same code the server runs, read back from the auth hook's registry), so a
// new route shows up here by itself; a route without an entry in the permission table fails the
// first test. Every route is then called on the real server with each credential of
// test/helpers/auth-oracle.ts (keys over every collection, scoped and tenant-bound keys, admin and
// Qdrant JWTs, expired and revoked ones), sent both as `Authorization: Bearer` and as `api-key`,
// with auth enabled and disabled; the status is compared with what the oracle computes from
// docs/decisions.md section 3 and docs/auth.md, and collection m is compared whole after every
// refused change.

import { UNIMPLEMENTED } from '../../src/main/http/routes/unimplemented.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, type RouteAccess } from '../../src/main/auth/http.js';
import type { Access } from '../../src/main/auth/permissions.js';
import { AuthService } from '../../src/main/auth/service.js';
import { loadConfig } from '../../src/main/config.js';
import { Engine } from '../../src/main/engine.js';
import { Metrics } from '../../src/main/metrics.js';
import { buildApp } from '../../src/main/http/app.js';
import { openAuthDb, openDb, type QuiverDb } from '../../src/shared/db.js';
import { OTHER_PASSWORD, bearer, login, setEnabled } from '../helpers/auth.js';
import { BOUND, CREDENTIALS, MATRIX_SECRET, boundPassOk, oracle, setUpCredentials, type Credential } from '../helpers/auth-oracle.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

/** docs/decisions.md section 3's classification of routes, for checking the table's entries. */
function designAccess(method: string, url: string): Access | 'unclassified' {
  const m = method === 'HEAD' ? 'GET' : method;
  const fixed: Record<string, Access> = {
    'GET /': 'public',
    'GET /healthz': 'public',
    'GET /livez': 'public',
    'GET /readyz': 'public',
    // Metrics name collections and show traffic: a read credential, as a monitoring key holds.
    'GET /metrics': 'read',
    // Telemetry counts collections and describes the host, as the metrics do.
    'GET /telemetry': 'read',
    // Issues name collections and keys, as the telemetry; clearing them changes state.
    'GET /issues': 'read',
    'GET /cluster/telemetry': 'read',
    'DELETE /issues': 'write',
    // Cluster status names the nodes and their addresses, as the telemetry describes the host.
    'GET /cluster': 'read',
    // Removing a node moves its replicas: managing, as the collection cluster operations.
    'DELETE /cluster/peer/:peer_id': 'manage',
    'POST /auth/login': 'public',
    'POST /auth/admin': 'admin_bootstrap',
    'POST /auth/admin/reset-password': 'admin',
    'PATCH /auth/enabled': 'admin_jwt',
    'POST /auth/api_key': 'token_admin',
    'GET /auth/api_keys': 'token_admin',
    'DELETE /auth/api_key/:token_id': 'token_admin',
    'POST /auth/api_key/:token_id/rotate': 'token_admin',
    'PATCH /auth/api_key/:token_id': 'token_admin',
    // Lists: a scoped credential sees the collections it may read.
    'GET /collections': 'list',
    'GET /aliases': 'list',
  };
  const f = fixed[`${m} ${url}`];
  if (f !== undefined) return f;
  // The API description is public, like the health checks: it tells nothing about the data.
  if (m === 'GET' && (url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/'))) return 'public';
  // The dashboard's static files: public, they hold no data (the page asks for a credential).
  if (m === 'GET' && (url === '/dashboard' || url.startsWith('/dashboard/'))) return 'public';
  if (!url.startsWith('/collections') && !url.startsWith('/aliases')) return 'unclassified';
  if (m === 'GET') return 'read';
  // read: retrieve, count, search, query, scroll, recommend, discover, facet (and their batch/groups forms)
  if (m === 'POST' && /^\/collections\/:[^/]+\/points$/.test(url)) return 'read';
  if (m === 'POST' && /\/points\/(count|scroll|search|query|recommend|discover)(\/(batch|groups))?$/.test(url)) return 'read';
  if (m === 'POST' && /\/facet$/.test(url)) return 'read';
  if (m === 'POST' && /\/points\/search\/matrix\/(pairs|offsets)$/.test(url)) return 'read';
  // Changing a collection itself (its config, indexes, vector names, snapshots, optimizer runs, replicas, aliases): manage.
  if (/^\/collections\/:[^/]+$/.test(url) || /\/(index|snapshots|operations|cluster|aliases)(\/|$)/.test(url) || /^\/collections\/:[^/]+\/vectors\//.test(url) || url === '/aliases') return 'manage';
  return 'write';
}

let server: TestServer;
let base: string;
let routes: RouteAccess[] = [];
const creds = {} as Record<Credential, string | null>;
let adminJwt = '';
let password = OTHER_PASSWORD;
let unique = 0;
const inProcess: { dir: string; db: QuiverDb | null } = { dir: tempDataDir(), db: null };

interface Sample {
  path: string;
  body?: unknown;
  /** The status when the credential is good enough; undefined: anything but 401/403 and 5xx. */
  expect?: number;
}

/** A request per route that succeeds when allowed and can be repeated. */
function sample(method: string, url: string): Sample {
  const m = method === 'HEAD' ? 'GET' : method;
  const c = '/collections/m';
  const v = [0.1, 0.2, 0.3, 0.4];
  const key = `${m} ${url.replace(/:[^/]+/g, ':')}`;
  const known: Record<string, () => Sample> = {
    'GET /': () => ({ path: '/', expect: 200 }),
    'GET /healthz': () => ({ path: '/healthz', expect: 200 }),
    'GET /livez': () => ({ path: '/livez', expect: 200 }),
    'GET /readyz': () => ({ path: '/readyz', expect: 200 }),
    'GET /cluster': () => ({ path: '/cluster', expect: 200 }),
    'POST /auth/login': () => ({ path: '/auth/login', body: { username: 'admin', password }, expect: 200 }),
    'POST /auth/admin': () => ({ path: '/auth/admin', body: { password }, expect: 200 }),
    'POST /auth/admin/reset-password': () => ({ path: '/auth/admin/reset-password', body: { password }, expect: 200 }),
    'PATCH /auth/enabled': () => ({ path: '/auth/enabled', body: { enabled: currentlyEnabled }, expect: 200 }),
    'POST /auth/api_key': () => ({ path: '/auth/api_key', body: { name: 'matrix', permission: 'read' }, expect: 200 }),
    'GET /auth/api_keys': () => ({ path: '/auth/api_keys', expect: 200 }),
    'DELETE /auth/api_key/:': () => ({ path: '/auth/api_key/987654321', expect: 404 }),
    'POST /auth/api_key/:/rotate': () => ({ path: '/auth/api_key/987654321/rotate', expect: 404 }),
    'PATCH /auth/api_key/:': () => ({ path: '/auth/api_key/987654321', body: { name: 'renamed' }, expect: 404 }),
    'GET /collections': () => ({ path: '/collections', expect: 200 }),
    'GET /collections/:': () => ({ path: c, expect: 200 }),
    'PUT /collections/:': () => ({ path: `/collections/new_${++unique}`, body: { vectors: { size: 4, distance: 'Dot' } }, expect: 200 }),
    'PATCH /collections/:': () => ({ path: c, body: { hnsw_config: { ef_construct: 100 } }, expect: 200 }),
    'DELETE /collections/:': () => ({ path: `/collections/absent_${++unique}`, expect: 200 }),
    'GET /collections/:/exists': () => ({ path: `${c}/exists`, expect: 200 }),
    'GET /collections/:/cluster': () => ({ path: `${c}/cluster`, expect: 200 }),
    'PUT /collections/:/points': () => ({ path: `${c}/points?wait=true`, body: { points: [{ id: 1, vector: v, payload: { tag: 'a' } }] }, expect: 200 }),
    'POST /collections/:/points': () => ({ path: `${c}/points`, body: { ids: [1, 2] }, expect: 200 }),
    'GET /collections/:/points/:': () => ({ path: `${c}/points/1`, expect: 200 }),
    'POST /collections/:/points/delete': () => ({ path: `${c}/points/delete?wait=true`, body: { points: [999] }, expect: 200 }),
    'PUT /collections/:/points/vectors': () => ({ path: `${c}/points/vectors?wait=true`, body: { points: [{ id: 2, vector: v }] }, expect: 200 }),
    'POST /collections/:/points/count': () => ({ path: `${c}/points/count`, body: { exact: true }, expect: 200 }),
    'POST /collections/:/points/scroll': () => ({ path: `${c}/points/scroll`, body: { limit: 2 }, expect: 200 }),
    'POST /collections/:/points/search': () => ({ path: `${c}/points/search`, body: { vector: v, limit: 2 }, expect: 200 }),
    'POST /collections/:/points/search/batch': () => ({ path: `${c}/points/search/batch`, body: { searches: [{ vector: v, limit: 1 }] }, expect: 200 }),
    'POST /collections/:/points/query': () => ({ path: `${c}/points/query`, body: { query: v, limit: 2 }, expect: 200 }),
    'POST /collections/:/points/query/batch': () => ({ path: `${c}/points/query/batch`, body: { searches: [{ query: v, limit: 1 }] }, expect: 200 }),
    'POST /collections/:/points/payload': () => ({ path: `${c}/points/payload?wait=true`, body: { payload: { tag: 'b' }, points: [3] }, expect: 200 }),
    'PUT /collections/:/points/payload': () => ({ path: `${c}/points/payload?wait=true`, body: { payload: { tag: 'c' }, points: [3] }, expect: 200 }),
    'POST /collections/:/points/payload/delete': () => ({ path: `${c}/points/payload/delete?wait=true`, body: { keys: ['x'], points: [3] }, expect: 200 }),
    'POST /collections/:/points/payload/clear': () => ({ path: `${c}/points/payload/clear?wait=true`, body: { points: [4] }, expect: 200 }),
    'PUT /collections/:/index': () => ({ path: `${c}/index?wait=true`, body: { field_name: 'tag', field_schema: 'keyword' }, expect: 200 }),
  };
  const k = known[key];
  if (k !== undefined) return k();
  if (url === '/dashboard' || url.startsWith('/dashboard/')) return { path: url, expect: 200 };
  if (url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/')) {
    return { path: url.replace('*', 'index.html'), ...(url === '/docs' ? {} : { expect: 200 }) };
  }
  // The spec's 501 endpoints: allowed through, they answer 501.
  if (UNIMPLEMENTED.some(([um, uu]) => um === m && uu === url)) {
    const path = url.replace(':collection_name', 'm').replace(/:[^/]+/g, 'x');
    return { path, ...(m === 'GET' || m === 'DELETE' ? {} : { body: {} }), expect: 501 };
  }
  // A route this file has no sample for: fill its parameters and expect "not refused".
  const path = url
    .replace(':collection_name', 'm')
    .replace(':token_id', '987654321')
    .replace(/:[^/]+/g, 'x');
  return { path, ...(m === 'GET' || m === 'DELETE' ? {} : { body: {} }) };
}

let currentlyEnabled = true;

/** Collection m whole, as the admin reads it (payloads, vectors, and the index set). */
async function snapshot(): Promise<unknown> {
  const h = bearer(adminJwt);
  const points = await call(base, 'POST', '/collections/m/points/scroll', { limit: 100, with_payload: true, with_vector: true }, h);
  const info = await call(base, 'GET', '/collections/m', undefined, h);
  return [points.body?.result?.points, info.body?.result?.payload_schema, info.body?.result?.config];
}

async function refreshAdminJwt(): Promise<void> {
  adminJwt = await login(base, password);
  creds['admin JWT'] = adminJwt;
}

beforeAll(async () => {
  // The routes, from the app itself.
  inProcess.db = openDb(inProcess.dir);
  const auth = await AuthService.open(openAuthDb(inProcess.db.root), { jwtTtlSeconds: 60 });
  const engine = new Engine(inProcess.db, { workerCount: 1, call: () => Promise.reject(new Error('no workers in this test')), close: async () => undefined });
  const app = await buildApp(loadConfig({ SERVICE_LOG_LEVEL: 'silent', SERVICE_DATA_DIR: inProcess.dir }), engine, auth, new Metrics(engine));
  await app.ready();
  routes = [...registeredRoutes(app)];
  await app.close();

  // The real server and the credentials (the admin's password ends as OTHER_PASSWORD).
  server = await startServer({ shards: 2, env: { SERVICE_JWT_SECRET: MATRIX_SECRET } });
  base = server.url;
  const made = await setUpCredentials(base);
  Object.assign(creds, made.creds);
  adminJwt = made.adminJwt;
}, 120_000);

afterAll(async () => {
  if (server !== undefined) {
    await server.stop();
    removeDir(server.dataDir);
  }
  await inProcess.db?.root.close();
  removeDir(inProcess.dir);
});

describe('the route table covers the app', () => {
  it('every registered route has a permission entry', () => {
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.url}`);
    expect(missing, `routes without an entry in src/main/auth/permissions.ts: ${missing.join(', ')}`).toEqual([]);
  });

  it('the entries agree with docs/decisions.md section 3', () => {
    const wrong = routes
      .map((r) => ({ r, want: designAccess(r.method, r.url) }))
      .filter(({ r, want }) => want !== 'unclassified' && want !== r.access)
      .map(({ r, want }) => `${r.method} ${r.url}: table says ${r.access}, DESIGN says ${want}`);
    expect(wrong).toEqual([]);
    const unclassified = routes.filter((r) => designAccess(r.method, r.url) === 'unclassified').map((r) => `${r.method} ${r.url}`);
    expect(unclassified, 'routes this test cannot classify; teach designAccess about them').toEqual([]);
  });
});

const HEADER_STYLES = ['Authorization: Bearer', 'api-key'] as const;

describe.each([true, false])('route x credential matrix, auth enabled = %s', (enabled) => {
  it(`every route answers every credential as docs/decisions.md says (both headers)`, async () => {
    currentlyEnabled = enabled;
    await setEnabled(base, adminJwt, enabled);
    const failures: string[] = [];
    let cells = 0;
    for (const route of routes) {
      const access = route.access;
      if (access === undefined) {
        failures.push(`${route.method} ${route.url}: no permission entry`);
        continue;
      }
      for (const cred of CREDENTIALS) {
        for (const style of HEADER_STYLES) {
          const token = creds[cred];
          const headers: Record<string, string> = token === null ? {} : style === 'api-key' ? { 'api-key': token } : { authorization: `Bearer ${token}` };
          const s = sample(route.method, route.url);
          // The collection the route names, as the sample fills it (null: the route names none).
          const target = route.url.includes(':collection_name') ? decodeURIComponent(/^\/collections\/([^/?]+)/.exec(s.path)?.[1] ?? '') : null;
          const want = oracle(access, cred, enabled, target);
          // A refused change must leave the collection as it was: compared whole after each.
          const changes = (access === 'write' || access === 'manage') && target === 'm' && want !== 'pass';
          const before = changes ? await snapshot() : null;
          const res = await call(base, route.method, s.path, route.method === 'GET' || route.method === 'HEAD' ? undefined : s.body ?? {}, headers);
          cells++;
          const where = `${route.method} ${route.url} [${access}] with ${cred} via ${style}: got ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
          const isAuth = route.url.startsWith('/auth/');
          if (before !== null && JSON.stringify(await snapshot()) !== JSON.stringify(before)) failures.push(`${where}; refused, yet the collection changed`);
          if (want === 'pass' && BOUND.has(cred)) {
            // Through a binding: not refused by auth; a change its filter forbids is 403 naming the filter.
            if (!boundPassOk(res.status, String(res.body?.status?.error ?? res.body?.message ?? ''))) failures.push(`${where}; expected not refused by auth`);
          } else if (want === 'pass') {
            if (s.expect !== undefined ? res.status !== s.expect : res.status === 401 || res.status === 403 || res.status >= 500) {
              failures.push(`${where}; expected ${s.expect ?? 'not 401/403/5xx'}`);
            }
          } else if (res.status !== want) {
            failures.push(`${where}; expected ${want}`);
          } else if (route.method !== 'HEAD') {
            // The envelope: auth endpoints {status: "error", message}, data endpoints {time, status: {error}}.
            const okShape = isAuth
              ? res.body?.status === 'error' && typeof res.body?.message === 'string'
              : typeof res.body?.time === 'number' && typeof res.body?.status?.error === 'string';
            if (!okShape) failures.push(`${where}; wrong error envelope`);
            if (access === 'token_admin' && !enabled && res.body?.message !== 'API key management API requires auth_enabled=true') {
              failures.push(`${where}; expected the spec's message`);
            }
          }
          // Admin password changes revoke the admin JWT in use: take a fresh one.
          if (res.status === 200 && route.method === 'POST' && (route.url === '/auth/admin' || route.url === '/auth/admin/reset-password')) {
            await refreshAdminJwt();
          }
        }
      }
    }
    expect(cells).toBe(routes.length * CREDENTIALS.length * HEADER_STYLES.length);
    expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
  }, 300_000);
});

describe('matrix size', () => {
  it('is routes x credentials x {enabled, disabled} x 2 header styles', () => {
    const size = { routes: routes.length, credentials: CREDENTIALS.length, states: 2, headerStyles: HEADER_STYLES.length };
    expect(size.routes * size.credentials * size.states).toBeGreaterThan(600);
    console.log(`auth matrix: ${size.routes} routes x ${size.credentials} credentials x 2 states = ${size.routes * size.credentials * 2} cells, each sent with both header styles`);
  });
});
