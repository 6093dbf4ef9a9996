// The access log: one info line per REST request and gRPC call, read back from the real server's
// stdout. Checks the fields, that expected failures (4xx, 501) carry no stack trace, that
// credentials never reach the log, and that SERVICE_ACCESS_LOG=off writes no access line.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, apiKeyHeader, bearer, createKey, login, setEnabled } from '../helpers/auth.js';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  route?: string | null;
  path?: string;
  status?: number | string;
  ms?: number;
  collection?: string;
  [k: string]: unknown;
}

function records(server: TestServer): Line[] {
  return server.logs.flatMap((l) => {
    try {
      return [JSON.parse(l) as Line];
    } catch {
      return [];
    }
  });
}

const accessLines = (server: TestServer): Line[] => records(server).filter((r) => r.msg === 'access');

/** Lines reach stdout a moment after the response: wait for the access line a test expects. */
async function lineFor(server: TestServer, match: (l: Line) => boolean): Promise<Line> {
  for (let i = 0; i < 100; i++) {
    const found = accessLines(server).find(match);
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no matching access line in:\n${accessLines(server).map((l) => JSON.stringify(l)).join('\n')}`);
}

describe('access log on (the default)', () => {
  let server: TestServer;
  let key = '';
  let jwt = '';

  beforeAll(async () => {
    server = await startServer({ shards: 1, env: { SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD } });
    jwt = await login(server.url, ADMIN_PASSWORD);
    await setEnabled(server.url, jwt, true);
    key = (await createKey(server.url, jwt, { permission: 'read,write' })).api_key;
    const h = apiKeyHeader(key);
    expect((await call(server.url, 'PUT', '/collections/logged', { vectors: { size: 2, distance: 'Dot' } }, h)).status).toBe(200);
  });

  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('a 200 logs method, route template, status, duration, collection and request id at info', async () => {
    expect((await call(server.url, 'GET', '/collections/logged?x=1', undefined, apiKeyHeader(key))).status).toBe(200);
    const l = await lineFor(server, (r) => r.route === '/collections/:collection_name' && r.method === 'GET');
    expect(l).toMatchObject({ level: 30, method: 'GET', status: 200, collection: 'logged', msg: 'access' });
    expect(l.reqId).toMatch(/^req-/);
    expect(typeof l.ms).toBe('number');
    expect(l.ms).toBeGreaterThanOrEqual(0);
    // Neither the query string nor the URL of a matched route is logged.
    expect(JSON.stringify(l)).not.toContain('x=1');
  });

  it('404 (unknown collection and unknown route), 400 and 501 are logged at info without a stack trace', async () => {
    const h = apiKeyHeader(key);
    expect((await call(server.url, 'GET', '/collections/nope', undefined, h)).status).toBe(404);
    expect((await call(server.url, 'GET', '/no/such/route', undefined, h)).status).toBe(404);
    expect((await call(server.url, 'POST', '/collections/logged/points/search', { vector: 'no', limit: 1 }, h)).status).toBe(400);
    expect((await call(server.url, 'GET', '/aliases', undefined, h)).status).toBe(501);
    const notFound = await lineFor(server, (r) => r.status === 404 && r.collection === 'nope');
    expect(notFound).toMatchObject({ method: 'GET', route: '/collections/:collection_name', level: 30 });
    const unmatched = await lineFor(server, (r) => r.status === 404 && r.route === null);
    expect(unmatched).toMatchObject({ method: 'GET', path: '/no/such/route', level: 30 });
    const bad = await lineFor(server, (r) => r.status === 400);
    expect(bad).toMatchObject({ method: 'POST', route: '/collections/:collection_name/points/search', collection: 'logged' });
    const unimplemented = await lineFor(server, (r) => r.status === 501);
    expect(unimplemented).toMatchObject({ method: 'GET', route: '/aliases', level: 30 });
    // No record of these requests (the access lines nor the error handler's) holds a stack or reaches error level.
    const ids = new Set([notFound.reqId, unmatched.reqId, bad.reqId, unimplemented.reqId]);
    const theirs = records(server).filter((r) => r.reqId !== undefined && ids.has(r.reqId));
    expect(theirs.length).toBeGreaterThanOrEqual(4);
    for (const r of theirs) {
      expect(r.level, JSON.stringify(r)).toBeLessThan(50);
      expect(JSON.stringify(r)).not.toMatch(/"stack"|"err"|\bat [\w.<>]+ \(/);
    }
  });

  it('a malformed URL, answered before routing, is logged too', async () => {
    expect((await call(server.url, 'GET', '/collections/%zz', undefined, apiKeyHeader(key))).status).toBe(400);
    expect(await lineFor(server, (r) => r.path === '/collections/%zz')).toMatchObject({ method: 'GET', route: null, status: 400, level: 30 });
  });

  it('a refused request (401) is logged with its status', async () => {
    expect((await call(server.url, 'GET', '/collections', undefined, apiKeyHeader('wrong-key'))).status).toBe(401);
    expect(await lineFor(server, (r) => r.status === 401 && r.route === '/collections')).toMatchObject({ method: 'GET', level: 30 });
  });

  it('gRPC calls log the same line, with the method path as route and the gRPC status', async () => {
    const client = grpcClient(server, { apiKey: key });
    await client.api('collections').get({ collectionName: 'logged' });
    const l = await lineFor(server, (r) => r.route === '/qdrant.Collections/Get');
    expect(l).toMatchObject({ method: 'gRPC', status: 'OK', collection: 'logged', level: 30 });
    expect(l.reqId).toMatch(/^grpc-/);
    await expect(client.api('collections').get({ collectionName: 'missing' })).rejects.toThrow();
    expect(await lineFor(server, (r) => r.route === '/qdrant.Collections/Get' && r.status === 'NOT_FOUND')).toMatchObject({ collection: 'missing' });
  });

  it('no credential, password or body ever reaches the log', async () => {
    // A body with a recognisable value, sent with both header styles.
    await call(server.url, 'PUT', '/collections/logged/points?wait=true', { points: [{ id: 1, vector: [1, 2], payload: { marker: 'BODY-MARKER-7' } }] }, apiKeyHeader(key));
    await call(server.url, 'GET', '/collections', undefined, bearer(jwt));
    await lineFor(server, (r) => r.route === '/collections/:collection_name/points' && r.method === 'PUT');
    const all = server.logs.join('\n');
    expect(accessLines(server).length).toBeGreaterThan(5);
    for (const secret of [key, jwt, ADMIN_PASSWORD, 'BODY-MARKER-7']) expect(all).not.toContain(secret);
  });
});

describe('access log off (SERVICE_ACCESS_LOG=off)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ shards: 1, env: { SERVICE_ACCESS_LOG: 'off' } });
  });

  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('writes no access line for REST or gRPC, while other info lines still appear', async () => {
    expect((await call(server.url, 'GET', '/collections')).status).toBe(200);
    expect((await call(server.url, 'GET', '/collections/nope')).status).toBe(404);
    expect((await call(server.url, 'GET', '/aliases')).status).toBe(501);
    await grpcClient(server).api('collections').list({});
    // The 404's own info line shows the log is live; give any access line the same time to land.
    for (let i = 0; i < 50 && !records(server).some((r) => r.msg?.startsWith('Not found: Collection')); i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(records(server).some((r) => r.level === 30)).toBe(true);
    expect(accessLines(server)).toEqual([]);
  });
});
