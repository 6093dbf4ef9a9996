// Nested filters, full-text matching and key paths against a real server, through the Qdrant
// clients and fetch. Nested answers are checked against an oracle written here from Qdrant's
// rules (an element of the array at `key` satisfies the whole inner filter alone), with and
// without payload indexes on the nested keys; full-text answers against hand-derived ids.

import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, grpcClient } from '../helpers/grpc.js';
import { call, randomVectors, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

async function ids(collection: string, filter: unknown): Promise<number[]> {
  const res = await client.scroll(collection, { filter: filter as never, limit: 10_000, with_payload: false });
  return res.points.map((p) => Number(p.id)).sort((a, b) => a - b);
}

async function count(collection: string, filter: unknown): Promise<number> {
  return (await client.count(collection, { filter: filter as never, exact: true })).count;
}

describe('nested filters: oracle, with and without indexes on the nested keys', () => {
  const N = 400;
  const F = ['a', 'b', 'c'];
  const r = rng(11);
  const pick = <T,>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  function element(): unknown {
    if (r() < 0.05) return pick(['a', 7, null]); // not an object: nested skips it
    const e: Obj = {};
    if (r() < 0.85) e.f = pick(F);
    if (r() < 0.8) e.n = Math.floor(r() * 10);
    if (r() < 0.5) e.t = pick(['red apple', 'green apple', 'reddish pear', 'Red wine']);
    if (r() < 0.6) e.tags = Array.from({ length: Math.floor(r() * 4) }, () => pick(['x', 'y', 'z']));
    return e;
  }
  const payloads: Obj[] = Array.from({ length: N }, () => {
    const x = r();
    if (x < 0.05) return {};
    if (x < 0.1) return { d: element() }; // a lone object, not an array
    return { d: Array.from({ length: Math.floor(r() * 4) }, element) };
  });
  const elems = (p: Obj): Obj[] => (Array.isArray(p.d) ? p.d.filter(isObj) : []);
  const vals = (e: Obj, k: string): unknown[] => (e[k] === undefined ? [] : Array.isArray(e[k]) ? (e[k] as unknown[]) : [e[k]]);
  const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const nested = (filter: Obj): Obj => ({ nested: { key: 'd', filter } });

  // [name, filter, oracle(payload, indexed)]
  const cases: [string, Obj, (p: Obj, indexed: boolean) => boolean][] = [
    [
      'must: one element with f=a and n>=5',
      { must: [nested({ must: [{ key: 'f', match: { value: 'a' } }, { key: 'n', range: { gte: 5 } }] })] },
      (p) => elems(p).some((e) => e.f === 'a' && typeof e.n === 'number' && e.n >= 5),
    ],
    [
      'must_not inside nested: some element is not f=a',
      { must: [nested({ must_not: [{ key: 'f', match: { value: 'a' } }] })] },
      (p) => elems(p).some((e) => e.f !== 'a'),
    ],
    [
      'must_not around nested: no element is f=a',
      { must_not: [nested({ must: [{ key: 'f', match: { value: 'a' } }] })] },
      (p) => !elems(p).some((e) => e.f === 'a'),
    ],
    [
      'should inside nested, with must',
      { must: [nested({ should: [{ key: 'f', match: { value: 'a' } }, { key: 'f', match: { value: 'b' } }], must: [{ key: 'n', range: { lt: 5 } }] })] },
      (p) => elems(p).some((e) => (e.f === 'a' || e.f === 'b') && typeof e.n === 'number' && e.n < 5),
    ],
    [
      'min_should inside nested: 2 of 3 conditions on one element',
      {
        must: [
          nested({
            min_should: {
              conditions: [{ key: 'f', match: { value: 'c' } }, { key: 'n', range: { gte: 5 } }, { key: 'tags', match: { any: ['x'] } }],
              min_count: 2,
            },
          }),
        ],
      },
      (p) =>
        elems(p).some((e) => [e.f === 'c', typeof e.n === 'number' && e.n >= 5, vals(e, 'tags').includes('x')].filter(Boolean).length >= 2),
    ],
    [
      'is_empty inside nested (condition and field forms)',
      { must: [nested({ must: [{ is_empty: { key: 'tags' } }, { key: 'f', is_empty: false }] })] },
      (p) => elems(p).some((e) => vals(e, 'tags').length === 0 && vals(e, 'f').length > 0),
    ],
    [
      'values_count inside nested',
      { must: [nested({ must: [{ key: 'tags', values_count: { gte: 2 } }] })] },
      (p) => elems(p).some((e) => vals(e, 'tags').length >= 2),
    ],
    [
      'is_empty around nested: the flat path d[].f',
      { must: [{ is_empty: { key: 'd[].f' } }], must_not: [nested({ must: [{ key: 'n', range: { gt: 8 } }] })] },
      (p) => elems(p).every((e) => e.f === undefined) && !elems(p).some((e) => typeof e.n === 'number' && e.n > 8),
    ],
    [
      'a flat indexed condition and a nested one together',
      { must: [{ key: 'd[].f', match: { value: 'b' } }, nested({ must_not: [{ key: 'n', range: { gte: 1 } }] })] },
      (p) => elems(p).some((e) => e.f === 'b') && elems(p).some((e) => !(typeof e.n === 'number' && e.n >= 1)),
    ],
    ['has_id inside nested never matches', { must: [nested({ must: [{ has_id: [1, 2, 3] }] })] }, () => false],
    [
      'text inside nested: tokens with a text index on d[].t, substring without',
      { must: [nested({ must: [{ key: 't', match: { text: 'red' } }] })] },
      (p, indexed) => elems(p).some((e) => typeof e.t === 'string' && (indexed ? words(e.t).includes('red') : e.t.includes('red'))),
    ],
  ];

  beforeAll(async () => {
    const vectors = randomVectors(N, 4, 3);
    for (const name of ['np', 'ni']) {
      await client.createCollection(name, { vectors: { size: 4, distance: 'Dot' } });
      await client.upsert(name, { wait: true, points: payloads.map((payload, id) => ({ id, vector: vectors[id]!, payload })) });
    }
    await client.createPayloadIndex('ni', { field_name: 'd[].f', field_schema: 'keyword', wait: true });
    await client.createPayloadIndex('ni', { field_name: 'd[].n', field_schema: 'integer', wait: true });
    await client.createPayloadIndex('ni', { field_name: 'd[].t', field_schema: 'text', wait: true });
  });

  it.each(cases)('%s', async (_name, filter, oracle) => {
    for (const [collection, indexed] of [
      ['np', false],
      ['ni', true],
    ] as const) {
      const want = payloads.flatMap((p, id) => (oracle(p, indexed) ? [id] : []));
      expect(await ids(collection, filter), `${collection} ${JSON.stringify(filter)}`).toEqual(want);
      expect(await count(collection, filter)).toBe(want.length);
    }
  });

  it('the oracle cases select something and leave something out', () => {
    for (const [name, , oracle] of cases.slice(0, -2)) {
      const n = payloads.filter((p) => oracle(p, false)).length;
      expect(n, name).toBeGreaterThan(0);
      expect(n, name).toBeLessThan(N);
    }
  });

  it('a lone object at the nested key is not an array: it never matches', async () => {
    const lone = payloads.flatMap((p, id) => (isObj(p.d) ? [id] : []));
    expect(lone.length).toBeGreaterThan(0);
    const got = new Set(await ids('np', { must: [nested({ must: [{ is_empty: { key: 'zzz' } }] })] }));
    for (const id of lone) expect(got.has(id)).toBe(false);
  });
});

describe('full-text matching', () => {
  const docs: Obj[] = [
    { t: 'The Quick brown fox' }, // 0
    { t: 'quickly browning leaves' }, // 1
    { t: 'Internationalization matters' }, // 2
    { t: 'inter-national business' }, // 3
    { t: '' }, // 4
    {}, // 5
    { t: ['red apple', 'green pear'] }, // 6
    { t: 42 }, // 7
  ];

  beforeAll(async () => {
    for (const name of ['tw', 'tp', 'tn']) {
      await client.createCollection(name, { vectors: { size: 2, distance: 'Dot' } });
      await client.upsert(name, { wait: true, points: docs.map((payload, id) => ({ id, vector: [1, id], payload })) });
    }
    await client.createPayloadIndex('tw', { field_name: 't', field_schema: 'text', wait: true });
    await client.createPayloadIndex('tp', {
      field_name: 't',
      field_schema: { type: 'text', tokenizer: 'prefix', min_token_len: 2, max_token_len: 5 },
      wait: true,
    });
  });

  // [match, word index, prefix index (min 2, max 5), no index]
  const table: [Obj, number[], number[], number[]][] = [
    [{ text_any: 'fox business' }, [0, 3], [0, 3], [0, 3]],
    // Lowercased with an index; a case-sensitive substring without. 'quick' is a prefix of 'quickly'.
    [{ text_any: 'QUICK pear' }, [0, 6], [0, 1, 6], [6]],
    [{ text: 'QUICK' }, [0], [0, 1], []],
    // Prefix index: query words cut to 5 ('natio'), matched against document prefixes.
    [{ text: 'inter nation' }, [], [3], []],
    // 'in' is a prefix of 'internationalization' and 'inter'; as a substring it is in 'browning' and 'inter-'.
    [{ text: 'in' }, [], [2, 3], [1, 3]],
    // Shorter than min_token_len: no query token, no match. As a substring 'i' is in four texts.
    [{ text: 'i' }, [], [], [0, 1, 2, 3]],
    [{ text: '' }, [], [], [0, 1, 2, 3, 4, 6]],
    [{ text_any: '' }, [], [], []],
    [{ phrase: '' }, [], [], [0, 1, 2, 3, 4, 6]],
    [{ phrase: 'brown fox' }, [0], [0], [0]],
    [{ phrase: 'fox brown' }, [], [], []],
  ];

  it.each(table)('%j', async (match, word, prefix, none) => {
    const filter = { must: [{ key: 't', match }] };
    expect(await ids('tw', filter), 'word index').toEqual(word);
    expect(await ids('tp', filter), 'prefix index').toEqual(prefix);
    expect(await ids('tn', filter), 'no index').toEqual(none);
    expect(await count('tp', filter)).toBe(prefix.length);
  });

  it('text_any over REST with fetch, and inside must_not', async () => {
    const res = await call(server.url, 'POST', '/collections/tw/points/count', { filter: { must_not: [{ key: 't', match: { text_any: 'fox pear' } }] }, exact: true });
    expect(res.status).toBe(200);
    expect(res.body.result.count).toBe(6);
  });

  it('gRPC Match.text_any', async () => {
    const g = grpcClient(server);
    const filter = { must: [{ conditionOneOf: { case: 'field' as const, value: { key: 't', match: { matchValue: { case: 'textAny' as const, value: 'QUICK pear' } } } } }] };
    expect((await g.api('points').count({ collectionName: 'tp', filter, exact: true })).result?.count).toBe(3n);
    const s = await g.api('points').scroll({ collectionName: 'tw', filter, limit: 100 });
    expect(s.result.map((p) => Number(p.id?.pointIdOptions.value)).sort()).toEqual([0, 6]);
  });
});

describe('key paths: bad keys are a 400, never a crash', () => {
  const BAD = ['\r\n\t', '', 'a..b', 'a.', '[]', 'a[', 'a[x]', '\u0000', ' ', 'a b', '\u202e', `${'k'.repeat(100_000)}.`, 'a[99999999999999999999]'];
  const vector = [0.5, 0.5];

  beforeAll(async () => {
    await client.createCollection('fz', { vectors: { size: 2, distance: 'Dot' } });
    await client.upsert('fz', { wait: true, points: [0, 1, 2].map((id) => ({ id, vector: [1, id], payload: { a: id, b: 'x' } })) });
  });

  const bodies = (filter: Obj): [string, string, Obj][] => [
    ['count', '/collections/fz/points/count', { filter }],
    ['query', '/collections/fz/points/query', { query: vector, filter }],
    ['scroll', '/collections/fz/points/scroll', { filter }],
    ['search', '/collections/fz/points/search', { vector, filter, limit: 3 }],
    ['delete by filter', '/collections/fz/points/delete?wait=true', { filter }],
    ['clear payload by filter', '/collections/fz/points/payload/clear?wait=true', { filter }],
    ['set payload by filter', '/collections/fz/points/payload?wait=true', { payload: { z: 1 }, filter }],
    ['delete payload keys by filter', '/collections/fz/points/payload/delete?wait=true', { keys: ['a'], filter }],
  ];

  it.each(BAD.map((k) => [k.length > 40 ? `${k.slice(0, 20)}... (${k.length} chars)` : JSON.stringify(k), k]))('key %s', async (_shown, key) => {
    const shapes: Obj[] = [
      { must: [{ key, match: { value: 1 } }] },
      { must_not: [{ is_empty: { key } }] },
      { should: [{ nested: { key: 'a', filter: { must: [{ key, range: { gt: 1 } }] } } }] },
    ];
    for (const filter of shapes) {
      for (const [what, path, body] of bodies(filter)) {
        const res = await call(server.url, 'POST', path, body);
        expect(res.status, `${what} ${JSON.stringify(filter).slice(0, 80)}`).toBe(400);
        expect(res.body.status.error).toMatch(/^Bad filter: filter\.[a-z_[\]0-9.]+key: Invalid json path: '/);
        expect(res.body.status.error.length).toBeLessThan(400);
      }
    }
  });

  it('the server keeps serving and nothing was changed', async () => {
    expect(await count('fz', { must: [{ key: 'b', match: { value: 'x' } }] })).toBe(3);
    const pts = (await client.scroll('fz', { with_payload: true })).points;
    expect(pts.map((p) => p.payload)).toEqual([0, 1, 2].map((a) => ({ a, b: 'x' })));
  });

  it('through @qdrant/js-client-rest: the error reaches the caller as a 400', async () => {
    await expect(client.count('fz', { filter: { must: [{ key: '\r\n\t', match: { value: 1 } }] } })).rejects.toMatchObject({ status: 400 });
  });

  it('through gRPC: INVALID_ARGUMENT naming the path', async () => {
    const g = grpcClient(server);
    const f = await failure(
      g.api('points').count({ collectionName: 'fz', filter: { must: [{ conditionOneOf: { case: 'field', value: { key: '\r\n\t', match: { matchValue: { case: 'integer', value: 1n } } } } }] } }),
    );
    expect(f.code).toBe(Code.InvalidArgument);
    expect(f.message).toContain('Invalid json path');
  });

  it('a field index on a key that is not a path is refused', async () => {
    const res = await call(server.url, 'PUT', '/collections/fz/index?wait=true', { field_name: 'a..b', field_schema: 'keyword' });
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe("Bad field_name: Invalid json path: 'a..b'");
  });

  it('quoted keys and unicode keys are paths', async () => {
    await client.setPayload('fz', { wait: true, points: [1], payload: { 'x.y': 5, città: 'sì' } });
    expect(await ids('fz', { must: [{ key: '"x.y"', match: { value: 5 } }] })).toEqual([1]);
    expect(await ids('fz', { must: [{ key: 'città', match: { value: 'sì' } }] })).toEqual([1]);
  });
});

describe('multilingual text index', () => {
  it('finds Chinese and Japanese words inside sentences written without spaces; a word index does not', async () => {
    const texts = ['我喜欢吃苹果和香蕉', '北京大学的学生', '東京都に住んでいます', '今日は東京へ行きます', 'apples and bananas'];
    for (const [name, tokenizer] of [['ml_text', 'multilingual'], ['wd_text', 'word']] as const) {
      await client.createCollection(name, { vectors: { size: 2, distance: 'Dot' } });
      await client.createPayloadIndex(name, { field_name: 't', field_schema: { type: 'text', tokenizer }, wait: true });
      await client.upsert(name, { wait: true, points: texts.map((t, i) => ({ id: i, vector: [1, i], payload: { t } })) });
    }
    const ids = async (name: string, match: Record<string, string>) =>
      (await client.scroll(name, { filter: { must: [{ key: 't', match } as never] }, limit: 10 })).points.map((p) => p.id).sort();
    expect(await ids('ml_text', { text: '苹果' })).toEqual([0]);
    expect(await ids('ml_text', { text: '大学' })).toEqual([1]);
    expect(await ids('ml_text', { text: '東京' })).toEqual([2, 3]);
    expect(await ids('ml_text', { text_any: '香蕉 学生' })).toEqual([0, 1]);
    expect(await ids('ml_text', { text: 'Apples' })).toEqual([4]);
    expect((await client.count('ml_text', { filter: { must: [{ key: 't', match: { phrase: '吃苹果' } } as never] }, exact: true })).count).toBe(1);
    expect(await ids('wd_text', { text: '苹果' })).toEqual([]);
    expect(await ids('wd_text', { text: '東京' })).toEqual([]);
  });
});
