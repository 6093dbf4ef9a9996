// Every bad-input path against one real server (2 shards, 1 MiB body limit): the status code,
// the data error envelope {time, status: {error}} of spec 7.1, and a message that names the
// problem (DESIGN 6). Rejected writes must write nothing, and the server must keep serving.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let base: string;

const PLAIN = 'plain'; // unnamed vector, size 4, Dot
const NAMED = 'named'; // img: size 4 Dot, txt: size 2 Cosine
const MISSING = 'nope';

const PLAIN_POINTS = [
  { id: 1, vector: [1, 0, 0, 0], payload: { n: 1, tag: 'a' } },
  { id: 2, vector: [0, 1, 0, 0], payload: { n: 2, tag: 'b' } },
  { id: 3, vector: [0, 0, 1, 0], payload: { n: 3, tag: 'a' } },
  { id: 4, vector: [0, 0, 0, 1], payload: { n: 4, tag: 'b' } },
  { id: 5, vector: [1, 1, 0, 0], payload: { n: 5, tag: 'a' } },
  { id: 6, vector: [0, 1, 1, 0], payload: { n: 6, tag: 'b' } },
];

beforeAll(async () => {
  server = await startServer({ shards: 2, env: { SERVICE_BODY_LIMIT_MB: '1' } });
  base = server.url;
  const a = await call(base, 'PUT', `/collections/${PLAIN}`, { vectors: { size: 4, distance: 'Dot' } });
  expect(a.status).toBe(200);
  const b = await call(base, 'PUT', `/collections/${NAMED}`, {
    vectors: { img: { size: 4, distance: 'Dot' }, txt: { size: 2, distance: 'Cosine' } },
  });
  expect(b.status).toBe(200);
  const c = await call(base, 'PUT', `/collections/${PLAIN}/points?wait=true`, { points: PLAIN_POINTS });
  expect(c.status).toBe(200);
  const d = await call(base, 'PUT', `/collections/${NAMED}/points?wait=true`, {
    points: [
      { id: 1, vector: { img: [1, 0, 0, 0], txt: [1, 0] } },
      { id: 2, vector: { img: [0, 1, 0, 0], txt: [0, 1] } },
    ],
  });
  expect(d.status).toBe(200);
});

afterAll(async () => {
  if (server === undefined) return;
  await server.stop();
  removeDir(server.dataDir);
});

// ---------------------------------------------------------------- helpers

interface Res {
  status: number;
  body: any;
}

/** fetch with a raw body and explicit headers; parses JSON when it can. */
async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Res> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = body;
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the envelope assertions below will say so
  }
  return { status: res.status, body: parsed };
}

const JSON_CT = { 'content-type': 'application/json' };

/** Asserts the status and the data error envelope, and returns the message. */
function expectError(res: Res, status: number, ...parts: (string | RegExp)[]): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(typeof res.body, `body is not JSON: ${String(res.body)}`).toBe('object');
  expect(res.body).not.toBeNull();
  expect(Object.keys(res.body).sort()).toEqual(['status', 'time']);
  expect(res.body).not.toHaveProperty('result');
  expect(typeof res.body.time).toBe('number');
  expect(res.body.time).toBeGreaterThanOrEqual(0);
  expect(typeof res.body.status).toBe('object');
  expect(typeof res.body.status.error).toBe('string');
  const msg: string = res.body.status.error;
  expect(msg.length).toBeGreaterThan(0);
  for (const p of parts) {
    if (typeof p === 'string') expect(msg).toContain(p);
    else expect(msg).toMatch(p);
  }
  return msg;
}

function expectOk(res: Res): any {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('ok');
  return res.body.result;
}

async function count(coll: string): Promise<number> {
  const r = await call(base, 'POST', `/collections/${coll}/points/count`, { exact: true });
  return expectOk(r).count as number;
}

/** Sends a write that must be rejected and checks that the point count did not move. */
async function rejectedWrite(coll: string, method: string, path: string, body: unknown, status: number, ...parts: (string | RegExp)[]): Promise<string> {
  const before = await count(coll);
  const res = await call(base, method, `/collections/${coll}${path}`, body);
  const msg = expectError(res, status, ...parts);
  expect(await count(coll)).toBe(before);
  return msg;
}

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

  it.each(['recommend', 'discover', 'context'])('unsupported query kind %s -> 400 naming the kind', async (kind) => {
    const res = await call(base, 'POST', `/collections/${PLAIN}/points/query`, { query: { [kind]: { positive: [1] } }, limit: 3 });
    expectError(res, 400, kind);
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

  it('delete: condition with nothing to check -> 400 and nothing deleted', async () => {
    await rejectedWrite(PLAIN, 'POST', '/points/delete?wait=true', { filter: { must_not: [{ key: 'tag' }] } }, 400, 'filter.must_not[0]');
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
