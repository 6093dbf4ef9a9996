// docs/interface.md section 4.8: every listed endpoint exists and answers 501 in the data error envelope
// (plus Qdrant's own paths for the same features). The list is written out from the spec here,
// not imported from the route table, so the two cannot drift together.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ shards: 1 });
  await call(server.url, 'PUT', '/collections/c', { vectors: { size: 2, distance: 'Dot' } });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const SPEC_4_8: [string, string][] = [
  ['GET', '/aliases'],
  ['POST', '/aliases'],
  ['GET', '/collections/c/aliases'],
  ['POST', '/collections/c/snapshots'],
  ['GET', '/collections/c/snapshots'],
  ['DELETE', '/collections/c/snapshots/snap-1'],
  ['PUT', '/collections/c/snapshots/snap-1/recover'],
  ['POST', '/collections/c/operations/flush'],
  ['POST', '/collections/c/operations/optimize'],
  ['POST', '/collections/c/operations/rebuild_index'],
  ['GET', '/collections/c/status'],
  ['POST', '/collections/c/points/search/groups'],
  ['POST', '/collections/c/points/query/groups'],
  ['POST', '/collections/c/points/recommend'],
  ['POST', '/collections/c/points/recommend/batch'],
  ['POST', '/collections/c/points/recommend/groups'],
  ['POST', '/collections/c/points/discover'],
  ['POST', '/collections/c/points/discover/batch'],
];

const QDRANT_PATHS: [string, string][] = [
  ['POST', '/collections/aliases'],
  ['PUT', '/collections/c/snapshots/recover'],
  ['GET', '/collections/c/snapshots/snap-1'],
];

describe('501 endpoints', () => {
  it.each([...SPEC_4_8, ...QDRANT_PATHS])('%s %s answers 501 in the data envelope', async (method, path) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    const r = await call(server.url, method, path, body);
    expect(r.status).toBe(501);
    expect(Object.keys(r.body).sort()).toEqual(['status', 'time']);
    expect(typeof r.body.time).toBe('number');
    expect(r.body.status.error).toMatch(/not implemented/);
  });

  it('a neighbouring unknown path is still a 404', async () => {
    const r = await call(server.url, 'POST', '/collections/c/points/recommendations', {});
    expect(r.status).toBe(404);
  });
});
