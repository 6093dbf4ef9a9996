// Collection and point errors against one real server (see test/helpers/errors-server.ts):
// rejected collection creation, every route on a missing collection, and missing or malformed
// point ids, each answered with the error envelope; nothing is created as a side effect.

import { describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import { base, expectError, expectOk, MISSING, PLAIN, PLAIN_POINTS, useErrorsServer } from '../helpers/errors-server.js';

useErrorsServer();

// ---------------------------------------------------------------- collections

describe('collection creation', () => {
  it('PUT collection without vectors -> 400 vectors_config is required', async () => {
    const res = await call(base, 'PUT', '/collections/novec', {});
    expectError(res, 400, 'vectors_config is required');
    expectError(await call(base, 'GET', '/collections/novec'), 404, 'Collection not found: novec');
  });

  it('unknown distance -> 400 listing the allowed values', async () => {
    const res = await call(base, 'PUT', '/collections/baddist', { vectors: { size: 4, distance: 'Cosinus' } });
    expectError(res, 400, 'Cosine', 'Euclid', 'Dot', 'Manhattan');
    expectError(await call(base, 'GET', '/collections/baddist'), 404, 'Collection not found: baddist');
  });

  it('size 0 -> 422 naming size, the value and the rule', async () => {
    const res = await call(base, 'PUT', '/collections/size0', { vectors: { size: 0, distance: 'Dot' } });
    expectError(res, 422, 'Validation error in JSON body: [vectors.size: value 0 invalid, must be from 1 to 65536]');
    expectError(await call(base, 'GET', '/collections/size0'), 404, 'Collection not found: size0');
  });

  it('non-integer size -> 400 naming size', async () => {
    const res = await call(base, 'PUT', '/collections/sizefrac', { vectors: { size: 2.5, distance: 'Dot' } });
    expectError(res, 400, 'size');
  });

  it('size as a string -> 400 naming size', async () => {
    const res = await call(base, 'PUT', '/collections/sizestr', { vectors: { size: '4', distance: 'Dot' } });
    expectError(res, 400, 'size');
  });

  it('creating an existing collection -> 409 Collection already exists', async () => {
    const res = await call(base, 'PUT', `/collections/${PLAIN}`, { vectors: { size: 4, distance: 'Dot' } });
    expectError(res, 409, `Collection already exists: ${PLAIN}`);
  });

  it('vectors_config is accepted as an alternative to vectors', async () => {
    expect(expectOk(await call(base, 'PUT', '/collections/viacfg', { vectors_config: { size: 3, distance: 'Euclid' } }))).toBe(true);
    const info = expectOk(await call(base, 'GET', '/collections/viacfg'));
    expect(info.config.params.vectors).toMatchObject({ size: 3, distance: 'Euclid' });
    expectOk(await call(base, 'PUT', '/collections/viacfg/points?wait=true', { points: [{ id: 1, vector: [1, 2, 3] }] }));
    expectError(await call(base, 'PUT', '/collections/viacfg/points', { points: [{ id: 2, vector: [1, 2, 3, 4] }] }), 400, "Dimension mismatch for vector '': expected 3, got 4");
  });
});

// ---------------------------------------------------------------- missing collection

describe('missing collection', () => {
  const v = [1, 0, 0, 0];
  const cases: [string, string, unknown][] = [
    ['PUT', '/points?wait=true', { points: [{ id: 1, vector: v }] }],
    ['POST', '/points', { ids: [1] }],
    ['GET', '/points/1', undefined],
    ['POST', '/points/delete?wait=true', { points: [1] }],
    ['PUT', '/points/vectors?wait=true', { points: [{ id: 1, vector: v }] }],
    ['POST', '/points/count', {}],
    ['POST', '/points/scroll', {}],
    ['POST', '/points/search', { vector: v, limit: 1 }],
    ['POST', '/points/search/batch', { searches: [{ vector: v, limit: 1 }] }],
    ['POST', '/points/query', { query: v }],
    ['POST', '/points/query/batch', { searches: [{ query: v }] }],
    ['PATCH', '', { hnsw_config: { ef_construct: 64 } }],
    ['GET', '/cluster', undefined],
  ];

  it.each(cases)('%s <missing>%s -> 404 Collection not found', async (method, path, body) => {
    const res = await call(base, method, `/collections/${MISSING}${path}`, body);
    expectError(res, 404, `Collection not found: ${MISSING}`);
  });

  it('GET /collections/<missing> -> 404', async () => {
    expectError(await call(base, 'GET', `/collections/${MISSING}`), 404, `Collection not found: ${MISSING}`);
  });

  it('GET /collections/<missing>/exists -> 200 false', async () => {
    expect(expectOk(await call(base, 'GET', `/collections/${MISSING}/exists`))).toEqual({ exists: false });
  });

  it('DELETE /collections/<missing> -> 200 with result false', async () => {
    expect(expectOk(await call(base, 'DELETE', `/collections/${MISSING}`))).toBe(false);
  });

  it('the missing collection was not created as a side effect', async () => {
    expectError(await call(base, 'GET', `/collections/${MISSING}`), 404, `Collection not found: ${MISSING}`);
  });
});

// ---------------------------------------------------------------- missing points

describe('missing points', () => {
  it('GET /points/<missing id> -> 404', async () => {
    expectError(await call(base, 'GET', `/collections/${PLAIN}/points/424242`), 404, '424242');
  });

  it('GET /points/<missing uuid> -> 404', async () => {
    const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    expectError(await call(base, 'GET', `/collections/${PLAIN}/points/${id}`), 404, id);
  });

  it('GET /points/<malformed id> -> 400', async () => {
    expectError(await call(base, 'GET', `/collections/${PLAIN}/points/not-a-uuid`), 400, 'not a valid point ID');
  });

  it('PUT /points/vectors naming a missing id -> 404', async () => {
    const res = await call(base, 'PUT', `/collections/${PLAIN}/points/vectors?wait=true`, { points: [{ id: 555555, vector: [1, 2, 3, 4] }] });
    expectError(res, 404, '555555');
    expectError(await call(base, 'GET', `/collections/${PLAIN}/points/555555`), 404);
  });

  it('PUT /points/vectors naming existing ids and one missing id -> 404 and no vector changed', async () => {
    // Its own collection, so a partial write cannot disturb the other cases.
    expectOk(await call(base, 'PUT', '/collections/vecs', { vectors: { size: 4, distance: 'Dot' } }));
    expectOk(await call(base, 'PUT', '/collections/vecs/points?wait=true', { points: PLAIN_POINTS }));
    const ids = PLAIN_POINTS.map((p) => p.id);
    const res = await call(base, 'PUT', '/collections/vecs/points/vectors?wait=true', {
      points: [...ids.map((id) => ({ id, vector: [7, 7, 7, 7] })), { id: 555556, vector: [7, 7, 7, 7] }],
    });
    expectError(res, 404, '555556');
    const got = expectOk(await call(base, 'POST', '/collections/vecs/points', { ids, with_vector: true }));
    const byId = new Map<number, number[]>(got.map((p: { id: number; vector: number[] }) => [p.id, p.vector]));
    for (const p of PLAIN_POINTS) expect(byId.get(p.id), `point ${p.id}`).toEqual(p.vector);
  });

  it('PUT /points/vectors with wrong dimension -> 400', async () => {
    const res = await call(base, 'PUT', `/collections/${PLAIN}/points/vectors?wait=true`, { points: [{ id: 1, vector: [1, 2] }] });
    expectError(res, 400, "Dimension mismatch for vector '': expected 4, got 2");
  });
});
