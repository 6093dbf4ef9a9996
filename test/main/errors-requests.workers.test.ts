// Bad requests against one real server (see test/helpers/errors-server.ts): transport and
// framework failures (malformed, empty, too deep, too large or non-JSON bodies, unknown routes),
// bad searches and queries, and wrong JSON types, each answered with the error envelope.

import { describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import { base, count, expectError, expectOk, JSON_CT, NAMED, PLAIN, raw, useErrorsServer } from '../helpers/errors-server.js';

useErrorsServer();

// ---------------------------------------------------------------- transport-level failures

describe('transport and framework errors use the envelope', () => {
  it('malformed JSON body -> 400', async () => {
    const res = await raw('POST', `/collections/${PLAIN}/points/count`, '{"filter": ', JSON_CT);
    expectError(res, 400, /JSON/);
  });

  it('malformed JSON body on upsert -> 400 and nothing written', async () => {
    const before = await count(PLAIN);
    const res = await raw('PUT', `/collections/${PLAIN}/points?wait=true`, '{"points": [{"id": 77, "vector": [1,2,3,4]}', JSON_CT);
    expectError(res, 400, /JSON/);
    expect(await count(PLAIN)).toBe(before);
  });

  it('empty body with content-type json on search -> 400', async () => {
    const res = await raw('POST', `/collections/${PLAIN}/points/search`, '', JSON_CT);
    expectError(res, 400, /empty/i);
  });

  it('an empty body with content-type json is no body on routes that take none', async () => {
    // curl examples send the header on every request; Qdrant accepts an empty body there.
    expectOk(await raw('PUT', '/collections/empty_ct', JSON.stringify({ vectors: { size: 2, distance: 'Dot' } }), JSON_CT));
    expectOk(await raw('GET', '/collections/empty_ct', undefined, JSON_CT));
    expectOk(await raw('DELETE', '/collections/empty_ct', '', JSON_CT));
    const listed = (await call(base, 'GET', '/collections')).body.result.collections as { name: string }[];
    expect(listed.map((c) => c.name)).not.toContain('empty_ct');
    // A route that needs a body still says it is empty, and a stray body is still parsed (and refused).
    expectError(await raw('PUT', '/collections/empty_ct', '', JSON_CT), 400, /the body is empty/);
    expectError(await raw('DELETE', '/collections/empty_ct', '{bad', JSON_CT), 400, /JSON/);
  });

  it('a body nested deeper than 128 levels -> 400 before anything recursive runs', async () => {
    // A filter 5,000 levels deep once overflowed the parser's stack: 500.
    for (const depth of [200, 5000, 50_000]) {
      let f = '{"key":"n","match":{"value":1}}';
      for (let i = 0; i < depth; i++) f = `{"must":[${f}]}`;
      const res = await raw('POST', `/collections/${PLAIN}/points/count`, `{"filter":${f}}`, JSON_CT);
      expectError(res, 400, /^Format error in JSON body: nested deeper than 128 levels$/);
    }
    // 60 filter levels (121 JSON levels) are fine.
    let f: Record<string, unknown> = { key: 'n', match: { value: 1 } };
    for (let i = 0; i < 60; i++) f = { must: [f] };
    expect(expectOk(await call(base, 'POST', `/collections/${PLAIN}/points/count`, { filter: f })).count).toBe(1);
  });

  it('text/plain body -> 415', async () => {
    const res = await raw('POST', `/collections/${PLAIN}/points/count`, '{}', { 'content-type': 'text/plain' });
    expectError(res, 415, /media type/i);
  });

  it('application/x-www-form-urlencoded body -> 415', async () => {
    const res = await raw('POST', `/collections/${PLAIN}/points/count`, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expectError(res, 415, /media type/i);
  });

  it('body over 1 MiB -> 413 and nothing written', async () => {
    const before = await count(PLAIN);
    const body = JSON.stringify({ points: [{ id: 88, vector: [1, 2, 3, 4], payload: { big: 'x'.repeat(1_200_000) } }] });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const res = await raw('PUT', `/collections/${PLAIN}/points?wait=true`, body, JSON_CT);
    expectError(res, 413, /too large/i);
    expect(await count(PLAIN)).toBe(before);
  });

  it('body just under 1 MiB is accepted', async () => {
    const body = JSON.stringify({ points: [{ id: 89, vector: [1, 2, 3, 4], payload: { big: 'x'.repeat(900_000) } }] });
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await raw('PUT', `/collections/${PLAIN}/points?wait=true`, body, JSON_CT);
    expectOk(res);
    expectOk(await call(base, 'POST', `/collections/${PLAIN}/points/delete?wait=true`, { points: [89] }));
  });

  it('unknown route -> 404 envelope, not fastify default', async () => {
    const res = await call(base, 'GET', '/no/such/route');
    const msg = expectError(res, 404, '/no/such/route');
    expect(msg).not.toMatch(/Route GET:.* not found/);
  });

  it('unknown method on a known path -> 404 envelope', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/nonsense`, {});
    expectError(res, 404, 'nonsense');
  });

  it('malformed percent-encoding in the URL -> 400 envelope', async () => {
    const res = await raw('GET', '/collections/%E0%A4%A');
    expectError(res, 400, /bad request|url|malformed|decode/i, '%E0%A4%A');
  });
});

// ---------------------------------------------------------------- search and query

describe('search and query', () => {
  it('search with wrong query dimension -> 400 dimension mismatch', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [1, 2, 3], limit: 3 });
    expectError(res, 400, "Dimension mismatch for vector '': expected 4, got 3");
  });

  it('query with wrong query dimension -> 400 dimension mismatch', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: [1, 2, 3, 4, 5], limit: 3 });
    expectError(res, 400, "Dimension mismatch for vector '': expected 4, got 5");
  });

  it('named search with wrong dimension -> names the vector', async () => {
    const res = await call(base, 'POST', `/collections/${NAMED}/points/query`, { query: [1, 2, 3], using: 'txt' });
    expectError(res, 400, "Dimension mismatch for vector 'txt': expected 2, got 3");
  });

  it('missing limit on /points/search -> 400 naming limit', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [1, 0, 0, 0] });
    expectError(res, 400, 'limit');
  });

  it('negative limit on /points/search -> 400 naming limit', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [1, 0, 0, 0], limit: -1 });
    expectError(res, 400, 'limit');
  });

  it('negative limit on /points/query -> 400 naming limit', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: [1, 0, 0, 0], limit: -5 });
    expectError(res, 400, 'limit');
  });

  it('negative limit on /points/scroll -> 400 naming limit', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/scroll`, { limit: -1 });
    expectError(res, 400, 'limit');
  });

  it('unknown `using` vector name -> 400 naming it', async () => {
    const res = await call(base, 'POST', `/collections/${NAMED}/points/query`, { query: [1, 0, 0, 0], using: 'audio' });
    expectError(res, 400, 'audio');
  });

  it('unknown vector name in a named /points/search -> 400 naming it', async () => {
    const res = await call(base, 'POST', `/collections/${NAMED}/points/search`, { vector: { name: 'audio', vector: [1, 0, 0, 0] }, limit: 1 });
    expectError(res, 400, 'audio');
  });

  it('query by a point id that does not exist -> 404', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: 999999, limit: 3 });
    expectError(res, 404, '999999');
  });

  it('query by a malformed point id -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: 'not-a-uuid', limit: 3 });
    expectError(res, 400, 'not a valid point ID');
  });

  it('unknown query kind -> 400 naming it', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: { frobnicate: 1 }, limit: 3 });
    expectError(res, 400, 'frobnicate');
  });

  it('a bad search inside a batch rejects the batch', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search/batch`, {
      searches: [
        { vector: [1, 0, 0, 0], limit: 1 },
        { vector: [1, 0, 0], limit: 1 },
      ],
    });
    expectError(res, 400, "Dimension mismatch for vector '': expected 4, got 3");
  });
});

// ---------------------------------------------------------------- wrong types

describe('wrong types are not coerced', () => {
  it('limit as a string on search -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [1, 0, 0, 0], limit: '10' });
    expectError(res, 400, 'limit');
  });

  it('limit as a string on query -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: [1, 0, 0, 0], limit: '10' });
    expectError(res, 400, 'limit');
  });

  it('limit as a string on scroll -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/scroll`, { limit: '10' });
    expectError(res, 400, 'limit');
  });

  it('with_payload as a number -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/scroll`, { with_payload: 1 });
    expectError(res, 400, 'with_payload');
  });

  it('with_payload as a number on search -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [1, 0, 0, 0], limit: 1, with_payload: 1 });
    expectError(res, 400, 'with_payload');
  });

  it('with_vector as a string -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/scroll`, { with_vector: 'yes' });
    expectError(res, 400, 'with_vector');
  });

  it('ids not an array on retrieve -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points`, { ids: 1 });
    expectError(res, 400, 'ids');
  });
});
