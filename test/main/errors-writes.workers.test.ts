// Rejected writes against one real server (see test/helpers/errors-server.ts): bad upserts and
// malformed filters (in reads and deletes) are refused with the error envelope and write nothing;
// afterwards the server still serves, its data is intact and it logged no internal error.

import { describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import { base, count, expectError, expectOk, JSON_CT, NAMED, PLAIN, PLAIN_POINTS, raw, rejectedWrite, server, useErrorsServer } from '../helpers/errors-server.js';

useErrorsServer();

// ---------------------------------------------------------------- upsert

describe('upsert rejects bad input and writes nothing', () => {
  it('wrong dimension, unnamed vector -> exact dimension mismatch message', async () => {
    const msg = await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 100, vector: [1, 2, 3] }] }, 400);
    expect(msg).toBe("Dimension mismatch for vector '': expected 4, got 3");
  });

  it('wrong dimension, named vector -> message names the vector', async () => {
    const msg = await rejectedWrite(NAMED, 'PUT', '/points?wait=true', { points: [{ id: 100, vector: { img: [1, 2, 3] } }] }, 400);
    expect(msg).toBe("Dimension mismatch for vector 'img': expected 4, got 3");
  });

  it('wrong dimension in the second named vector -> names it', async () => {
    const msg = await rejectedWrite(NAMED, 'PUT', '/points?wait=true', { points: [{ id: 100, vector: { img: [1, 2, 3, 4], txt: [1, 2, 3] } }] }, 400);
    expect(msg).toBe("Dimension mismatch for vector 'txt': expected 2, got 3");
  });

  it('one bad point in a batch rejects the whole batch', async () => {
    await rejectedWrite(
      PLAIN,
      'PUT',
      '/points?wait=true',
      {
        points: [
          { id: 101, vector: [1, 2, 3, 4] },
          { id: 102, vector: [1, 2, 3, 4] },
          { id: 103, vector: [1, 2, 3] },
        ],
      },
      400,
      "Dimension mismatch for vector '': expected 4, got 3",
    );
    expectError(await call(base, 'GET', `/collections/${PLAIN}/points/101`), 404);
    expectError(await call(base, 'GET', `/collections/${PLAIN}/points/102`), 404);
  });

  it('a rejected upsert of an existing id leaves the old point intact', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 1, vector: [9, 9, 9], payload: { n: 999 } }] }, 400, 'Dimension mismatch');
    const p = expectOk(await call(base, 'GET', `/collections/${PLAIN}/points/1`));
    expect(p.vector).toEqual([1, 0, 0, 0]);
    expect(p.payload).toEqual({ n: 1, tag: 'a' });
  });

  it('vector value 1e400 (parses to Infinity) -> 400', async () => {
    const before = await count(PLAIN);
    const res = await raw('PUT', `/collections/${PLAIN}/points?wait=true`, '{"points":[{"id":104,"vector":[1e400,0,0,0]}]}', JSON_CT);
    expectError(res, 400, /finite|vector/i);
    expect(await count(PLAIN)).toBe(before);
  });

  it('vector value -1e400 in a search -> 400', async () => {
    const res = await raw('POST', `/collections/${PLAIN}/points/search`, '{"vector":[-1e400,0,0,0],"limit":1}', JSON_CT);
    expectError(res, 400, /finite|vector/i);
  });

  it('a string in the vector -> 400', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 105, vector: [1, 'a', 3, 4] }] }, 400, /points\.0\.vector/);
  });

  it('a component beyond the float32 range -> 400 and nothing written', async () => {
    // 1e39 is a finite double but Infinity as float32, which would poison scores and the graph.
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 106, vector: [1e39, 0, 0, 0] }] }, 400, "Vector '' has a value outside the float32 range at index 0: 1e+39");
    const q = await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [0, -3.5e38, 0, 0], limit: 1 });
    expectError(q, 400, "Vector '' has a value outside the float32 range at index 1: -3.5e+38");
  });

  it('an empty vector -> 400', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 105, vector: [] }] }, 400, /points\.0\.vector/);
  });

  it.each([[-1], [1.5], ['not-a-uuid']])('bad point id %j -> 400 not a valid point ID', async (id) => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id, vector: [1, 2, 3, 4] }] }, 400, 'not a valid point ID');
  });

  it('unknown vector name in a named collection -> 400 naming it', async () => {
    await rejectedWrite(NAMED, 'PUT', '/points?wait=true', { points: [{ id: 106, vector: { audio: [1, 2] } }] }, 400, 'audio');
  });

  it('a named vector in an unnamed collection -> 400', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 106, vector: { img: [1, 2, 3, 4] } }] }, 400, 'img');
  });

  it('batch form with ids/vectors length mismatch -> 400', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { batch: { ids: [107, 108], vectors: [[1, 2, 3, 4]] } }, 400, /2 ids but 1 vectors/);
  });

  it('batch form with ids/payloads length mismatch -> 400', async () => {
    await rejectedWrite(
      PLAIN,
      'PUT',
      '/points?wait=true',
      { batch: { ids: [107, 108], vectors: [[1, 2, 3, 4], [4, 3, 2, 1]], payloads: [{ a: 1 }] } },
      400,
      /2 ids but 1 payloads/,
    );
  });

  it('missing points -> 400', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', {}, 400, /points/);
  });

  it('payload that is not an object -> 400', async () => {
    await rejectedWrite(PLAIN, 'PUT', '/points?wait=true', { points: [{ id: 109, vector: [1, 2, 3, 4], payload: [1, 2] }] }, 400, /payload/);
  });
});

// ---------------------------------------------------------------- filters

describe('malformed filters', () => {
  it('search: unknown condition key -> 400 naming it', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/search`, {
      vector: [1, 0, 0, 0],
      limit: 3,
      filter: { must: [{ frobnicate: { key: 'tag' } }] },
    });
    expectError(res, 400, 'filter.must[0]', 'frobnicate');
  });

  it('query: unknown top-level clause -> 400 naming it', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, {
      query: [1, 0, 0, 0],
      filter: { mustt: [{ key: 'tag', match: { value: 'a' } }] },
    });
    expectError(res, 400, 'mustt');
  });

  it('count: match with an object value -> 400 naming match.value', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/count`, {
      filter: { must: [{ key: 'tag', match: { value: { x: 1 } } }] },
    });
    expectError(res, 400, 'filter.must[0].match.value');
  });

  it('count: unknown match kind -> 400 naming it', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/count`, {
      filter: { must: [{ key: 'tag', match: { like: 'a' } }] },
    });
    expectError(res, 400, 'match', 'like');
  });

  it('scroll: range with a non-number bound -> 400 naming range.gt', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/scroll`, {
      filter: { should: [{ key: 'n', range: { gt: 'abc' } }] },
    });
    expectError(res, 400, 'filter.should[0].range.gt');
  });

  it('scroll: filter that is not an object -> 400', async () => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/scroll`, { filter: 'tag = a' });
    expectError(res, 400, 'filter');
  });

  it('delete: condition with nothing to check -> 422 (Qdrant validation) and nothing deleted', async () => {
    await rejectedWrite(PLAIN, 'POST', '/points/delete?wait=true', { filter: { must_not: [{ key: 'tag' }] } }, 422, 'filter.must_not[0]: At least one field condition must be specified');
  });

  it('delete: unknown field in a field condition -> 400 and nothing deleted', async () => {
    await rejectedWrite(PLAIN, 'POST', '/points/delete?wait=true', { filter: { must: [{ key: 'tag', matches: { value: 'a' } }] } }, 400, 'matches');
  });

  it('delete: has_id with a bad id -> 400 and nothing deleted', async () => {
    await rejectedWrite(PLAIN, 'POST', '/points/delete?wait=true', { filter: { must: [{ has_id: [1, -3] }] } }, 400, 'has_id');
  });

  it('delete by ids with a bad id -> 400 and nothing deleted', async () => {
    await rejectedWrite(PLAIN, 'POST', '/points/delete?wait=true', { points: [1, 'not-a-uuid'] }, 400, 'not a valid point ID');
  });
});

// ---------------------------------------------------------------- still alive

describe('after all of that', () => {
  it('GET / still answers 200', async () => {
    const res = await call(base, 'GET', '/');
    expect(res.status).toBe(200);
    expect(typeof res.body.title).toBe('string');
  });

  it('a valid search still works and the data is intact', async () => {
    expect(await count(PLAIN)).toBe(PLAIN_POINTS.length);
    const res = expectOk(await call(base, 'POST', `/collections/${PLAIN}/points/search`, { vector: [0, 0, 1, 0], limit: 2, with_payload: true }));
    expect(res).toHaveLength(2);
    expect(res[0].id).toBe(3);
    expect(res[0].payload).toEqual({ n: 3, tag: 'a' });
  });

  it('a valid query on the named collection still works', async () => {
    const res = expectOk(await call(base, 'POST', `/collections/${NAMED}/points/query`, { query: [0, 1], using: 'txt', limit: 1 }));
    expect(res.points).toHaveLength(1);
    expect(res.points[0].id).toBe(2);
  });

  it('the server logged no internal error', () => {
    const internal = server.logs.filter((l) => {
      try {
        return (JSON.parse(l) as { level?: number }).level! >= 50;
      } catch {
        return false;
      }
    });
    expect(internal).toEqual([]);
  });
});
