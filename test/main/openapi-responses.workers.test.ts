// The OpenAPI document says what each route answers, well enough to generate a working client:
// every operation has a tag, a summary, a unique operationId and its success and error
// responses; real responses of a running server validate against the documented schemas; and a
// client generated from the served document by openapi-typescript type-checks.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, createAdmin, login, setEnabled } from '../helpers/auth.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; tags?: { name: string }[] };

let server: TestServer;
let doc: Doc;
beforeAll(async () => {
  server = await startServer({ shards: 2 });
  doc = (await call(server.url, 'GET', '/openapi.json')).body as Doc;
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

const ajv = new Ajv({ strict: false, allErrors: true });

/** The documented schema of a response: its exact status, else its range (4XX, 5XX). */
function schemaFor(template: string, method: string, status: number): object | undefined {
  const op = doc.paths[template]?.[method.toLowerCase()];
  const r = op?.responses[String(status)] ?? op?.responses[`${String(status)[0]}XX`];
  return r?.content?.['application/json']?.schema;
}

describe('OpenAPI operations', () => {
  it('each has a tag from the tag list, a summary, a unique operationId, and success and error responses', () => {
    const tags = new Set((doc.tags ?? []).map((t) => t.name));
    const ids = new Map<string, string>();
    const problems: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (op.tags?.length !== 1 || !tags.has(op.tags[0]!)) problems.push(`${where}: tag ${String(op.tags)}`);
        if (typeof op.summary !== 'string' || op.summary === '') problems.push(`${where}: no summary`);
        if (typeof op.operationId !== 'string') problems.push(`${where}: no operationId`);
        else if (ids.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} also on ${ids.get(op.operationId)}`);
        else ids.set(op.operationId, where);
        const codes = Object.keys(op.responses);
        if (!codes.some((c) => c === '200' || c === '501')) problems.push(`${where}: no success or 501 response`);
        const plain = op.responses['200']?.content?.['text/plain'] !== undefined;
        if (!plain && !(codes.includes('4XX') && codes.includes('5XX'))) problems.push(`${where}: no 4XX/5XX error responses`);
      }
    }
    expect(problems).toEqual([]);
    expect(doc.paths['/collections/{collection_name}/points/query']?.post?.operationId).toBe('query_points');
    expect(doc.paths['/collections/{collection_name}']?.put?.tags).toEqual(['Collections']);
  });

  it('real responses validate against the documented schemas, successes and failures alike', async () => {
    const C = '/collections/{collection_name}';
    const cases: [method: string, template: string, path: string, body: unknown, status: number][] = [
      ['GET', '/', '/', undefined, 200],
      ['GET', '/telemetry', '/telemetry', undefined, 200],
      ['PUT', C, '/collections/oa', { vectors: { size: 2, distance: 'Dot' } }, 200],
      ['PUT', C, '/collections/oa', { vectors: { size: 2, distance: 'Dot' } }, 409],
      ['PUT', C, '/collections/ob', { vectors: { size: 'two', distance: 'Dot' } }, 400],
      ['PUT', `${C}/points`, '/collections/oa/points?wait=true', { points: [{ id: 1, vector: [1, 0], payload: { k: 'a', n: 1 } }, { id: 2, vector: [0, 1], payload: { k: 'b', n: 2 } }] }, 200],
      ['PUT', `${C}/points`, '/collections/oa/points', { points: [{ id: 3, vector: [1, 1] }] }, 200],
      ['PUT', `${C}/index`, '/collections/oa/index?wait=true', { field_name: 'k', field_schema: 'keyword' }, 200],
      ['GET', '/collections', '/collections', undefined, 200],
      ['GET', C, '/collections/oa', undefined, 200],
      ['GET', C, '/collections/nope', undefined, 404],
      ['GET', `${C}/exists`, '/collections/oa/exists', undefined, 200],
      ['GET', `${C}/cluster`, '/collections/oa/cluster', undefined, 200],
      ['POST', `${C}/points`, '/collections/oa/points', { ids: [1, 2], with_payload: true, with_vector: true }, 200],
      ['GET', `${C}/points/{id}`, '/collections/oa/points/1', undefined, 200],
      ['GET', `${C}/points/{id}`, '/collections/oa/points/99', undefined, 404],
      ['POST', `${C}/points/count`, '/collections/oa/points/count', { exact: true }, 200],
      ['POST', `${C}/points/scroll`, '/collections/oa/points/scroll', { limit: 1, with_vector: true }, 200],
      ['POST', `${C}/points/search`, '/collections/oa/points/search', { vector: [1, 0], limit: 2, with_payload: true }, 200],
      ['POST', `${C}/points/search/batch`, '/collections/oa/points/search/batch', { searches: [{ vector: [1, 0], limit: 1 }] }, 200],
      ['POST', `${C}/points/query`, '/collections/oa/points/query', { query: [1, 0], limit: 2, with_vector: true }, 200],
      ['POST', `${C}/points/query`, '/collections/oa/points/query', { query: [1, 0, 0], limit: 2 }, 400],
      ['POST', `${C}/points/query/batch`, '/collections/oa/points/query/batch', { searches: [{ query: [0, 1], limit: 1 }] }, 200],
      ['POST', `${C}/facet`, '/collections/oa/facet', { key: 'k', exact: true }, 200],
      ['POST', `${C}/points/payload`, '/collections/oa/points/payload?wait=true', { payload: { x: 1 }, points: [1] }, 200],
      ['PUT', `${C}/points/payload`, '/collections/oa/points/payload?wait=true', { payload: { x: 2 }, points: [1] }, 200],
      ['POST', `${C}/points/payload/delete`, '/collections/oa/points/payload/delete?wait=true', { keys: ['x'], points: [1] }, 200],
      ['POST', `${C}/points/payload/clear`, '/collections/oa/points/payload/clear?wait=true', { points: [2] }, 200],
      ['PUT', `${C}/points/vectors`, '/collections/oa/points/vectors?wait=true', { points: [{ id: 1, vector: [0.5, 0.5] }] }, 200],
      ['POST', `${C}/points/batch`, '/collections/oa/points/batch?wait=true', { operations: [{ delete: { points: [3] } }] }, 200],
      ['POST', `${C}/points/delete`, '/collections/oa/points/delete?wait=true', { points: [2] }, 200],
      ['DELETE', `${C}/index/{field_name}`, '/collections/oa/index/k?wait=true', undefined, 200],
      ['PATCH', C, '/collections/oa', { hnsw_config: { ef_construct: 64 } }, 200],
      ['POST', `${C}/points/recommend`, '/collections/oa/points/recommend', {}, 501],
      ['GET', '/no/such/route', '/no/such/route', undefined, 404],
      ['DELETE', C, '/collections/oa', undefined, 200],
    ];
    const failures: string[] = [];
    for (const [method, template, path, body, status] of cases) {
      const r = await call(server.url, method, path, body);
      const where = `${method} ${path} -> ${r.status}`;
      if (r.status !== status) {
        failures.push(`${where}: expected ${status}: ${JSON.stringify(r.body)}`);
        continue;
      }
      // An unknown route is documented nowhere; its body is still the data error envelope.
      const schema = template === '/no/such/route' ? schemaFor(C, 'GET', 404) : schemaFor(template, method, status);
      if (schema === undefined) {
        failures.push(`${where}: no documented schema`);
        continue;
      }
      const validate = ajv.compile(schema);
      if (!validate(r.body)) failures.push(`${where}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(r.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('auth responses validate too, with their own error envelope', async () => {
    const s = await startServer({ shards: 1 });
    try {
      const check = (template: string, method: string, r: { status: number; body: unknown }) => {
        const schema = schemaFor(template, method, r.status);
        expect(schema, `${method} ${template} ${r.status}`).toBeDefined();
        const validate = ajv.compile(schema!);
        expect(validate(r.body), `${method} ${template} ${r.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      };
      check('/auth/api_key', 'POST', await call(s.url, 'POST', '/auth/api_key', { name: 'x', permission: 'read' }));
      await createAdmin(s.url);
      check('/auth/login', 'POST', await call(s.url, 'POST', '/auth/login', { username: 'admin', password: ADMIN_PASSWORD }));
      check('/auth/login', 'POST', await call(s.url, 'POST', '/auth/login', { username: 'admin', password: 'wrong' }));
      const jwt = await login(s.url);
      const enabled = await call(s.url, 'PATCH', '/auth/enabled', { enabled: true }, bearer(jwt));
      check('/auth/enabled', 'PATCH', enabled);
      const created = await call(s.url, 'POST', '/auth/api_key', { name: 'k', permission: 'read,write' }, bearer(jwt));
      check('/auth/api_key', 'POST', created);
      check('/auth/api_keys', 'GET', await call(s.url, 'GET', '/auth/api_keys', undefined, bearer(jwt)));
      check('/auth/api_key/{token_id}/rotate', 'POST', await call(s.url, 'POST', `/auth/api_key/${created.body.id}/rotate`, undefined, bearer(jwt)));
      check('/auth/api_key/{token_id}', 'DELETE', await call(s.url, 'DELETE', `/auth/api_key/${created.body.id}`, undefined, bearer(jwt)));
      check('/collections', 'GET', await call(s.url, 'GET', '/collections'));
      await setEnabled(s.url, jwt, false);
    } finally {
      await s.stop();
      removeDir(s.dataDir);
    }
  });
});

describe('a client generated from the document', () => {
  it('openapi-typescript turns it into types that type-check against real use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quiver-openapi-'));
    try {
      writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0])));
      // What a caller writes against the generated types; the expect-error lines fail the check
      // if a response were typed as unknown or any.
      writeFileSync(
        join(dir, 'use.ts'),
        `import type { paths, operations } from './schema.js';
type Query = paths['/collections/{collection_name}/points/query']['post'];
type QueryOk = Query['responses'][200]['content']['application/json'];
export const ok: QueryOk = { usage: null, time: 0.001, status: 'ok', result: { points: [{ id: 1, version: 3, score: 0.5, vector: [1, 2] }] } };
export const firstId: string | number = ok.result.points[0]!.id;
type Failed = Query['responses']['4XX']['content']['application/json'];
export const err: Failed = { time: 0, status: { error: 'Not found' } };
type Upsert = operations['upsert_points']['responses'][200]['content']['application/json']['result'];
export const up: Upsert = { operation_id: 1, status: 'completed' };
type Info = paths['/collections/{collection_name}']['get']['responses'][200]['content']['application/json']['result'];
export const points: Info['points_count'] = 3;
// @ts-expect-error a score is a number
export const badScore: QueryOk['result']['points'][number]['score'] = 'high';
// @ts-expect-error an update status is acknowledged or completed
export const badStatus: Upsert['status'] = 'done';
// @ts-expect-error a result must have its points
export const missing: QueryOk['result'] = {};
`,
      );
      const tsc = resolve(import.meta.dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
      const out = (() => {
        try {
          execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', '--skipLibCheck', 'use.ts'], { cwd: dir, encoding: 'utf8' });
          return '';
        } catch (e) {
          return String((e as { stdout?: string }).stdout ?? e);
        }
      })();
      expect(out).toBe('');
    } finally {
      removeDir(dir);
    }
  }, 60_000);
});
