// order_by as Qdrant runs it, through real clients against a real server with several shards:
// asc/desc over integer, float and datetime keys (order by (value, id), ids descending under
// desc), a point once per distinct value of a multi-valued key, `start_from` inclusive (numbers
// and RFC 3339 datetimes, a datetime's order_value in microseconds), no next_page_offset, the
// refusals (id offset, no range index), paging with ties, the query API and gRPC; then payload
// selectors with array steps.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { cond, failure, grpcClient, idOf, jsonPayload } from '../helpers/grpc.js';

const dataDir = tempDataDir();
let server: TestServer;
let client: QdrantClient;

const DAY = 86_400_000;
const T0 = Date.parse('2024-01-01T00:00:00Z');
const N = 30;

type Doc = { n: number; f: number; at: string; multi?: number[]; tag: string };
const docs = new Map<number, Doc>();
for (let id = 1; id <= N; id++) {
  const d: Doc = { n: id % 5, f: id / 4, at: new Date(T0 + (id % 4) * DAY).toISOString(), tag: id % 2 === 0 ? 'even' : 'odd' };
  if (id <= 5) d.multi = [id, 100 - id];
  if (id === 6) d.multi = [7, 7];
  docs.set(id, d);
}

type Entry = { id: number; v: number };

/** The whole ordered result, as Qdrant defines it: one entry per distinct value, by (value, id). */
function expected(values: (d: Doc) => number[], direction: 'asc' | 'desc' = 'asc'): Entry[] {
  const out: Entry[] = [];
  for (const [id, d] of docs) for (const v of new Set(values(d))) out.push({ id, v });
  const dir = direction === 'asc' ? 1 : -1;
  return out.sort((a, b) => dir * (a.v - b.v || a.id - b.id));
}

const micros = (iso: string): number => Date.parse(iso) * 1000;
type P = { id: number; order_value?: number; payload?: Record<string, unknown> };
const entries = (points: P[]): Entry[] => points.map((p) => ({ id: p.id, v: p.order_value! }));

async function scroll(body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return call(server.url, 'POST', '/collections/ord/points/scroll', body);
}

beforeAll(async () => {
  server = await startServer({ dataDir, shards: 2 });
  client = new QdrantClient({ url: server.url });
  await client.createCollection('ord', { vectors: { size: 2, distance: 'Dot' }, shard_number: 3 });
  await client.upsert('ord', {
    wait: true,
    points: [
      ...[...docs].map(([id, d]) => ({ id, vector: [1, id], payload: d })),
      // No value for any order key: never listed.
      { id: 99, vector: [1, 1], payload: { tag: 'none' } },
    ],
  });
  for (const [field_name, field_schema] of [
    ['n', 'integer'],
    ['f', 'float'],
    ['at', 'datetime'],
    ['multi', 'integer'],
    ['tag', 'keyword'],
  ] as const) {
    await client.createPayloadIndex('ord', { field_name, field_schema, wait: true });
  }
  // Exact matches only: no range index to order by.
  await client.createPayloadIndex('ord', { field_name: 'lookup', field_schema: { type: 'integer', lookup: true, range: false }, wait: true });
});
afterAll(async () => {
  await server.stop();
  removeDir(dataDir);
});

describe('order_by over integer, float and datetime keys', () => {
  it('integer asc: by value, ties by id ascending, across shards; order_value is the value', async () => {
    const r = await client.scroll('ord', { order_by: 'n', limit: 100, with_payload: false });
    expect(entries(r.points as P[])).toEqual(expected((d) => [d.n]));
    expect(r.next_page_offset ?? null).toBeNull();
  });

  it('integer desc: by value descending, ties by id descending', async () => {
    const r = await client.scroll('ord', { order_by: { key: 'n', direction: 'desc' }, limit: 100, with_payload: false });
    expect(entries(r.points as P[])).toEqual(expected((d) => [d.n], 'desc'));
  });

  it('start_from is inclusive: from the value on in asc, from the value down in desc', async () => {
    const asc = await client.scroll('ord', { order_by: { key: 'n', start_from: 3 }, limit: 100, with_payload: false });
    expect(entries(asc.points as P[])).toEqual(expected((d) => [d.n]).filter((e) => e.v >= 3));
    const desc = await client.scroll('ord', { order_by: { key: 'n', direction: 'desc', start_from: 1 }, limit: 7, with_payload: false });
    expect(entries(desc.points as P[])).toEqual(expected((d) => [d.n], 'desc').filter((e) => e.v <= 1).slice(0, 7));
    // A fractional start on an integer key compares as a number.
    const frac = await client.scroll('ord', { order_by: { key: 'n', start_from: 3.5 }, limit: 100, with_payload: false });
    expect(entries(frac.points as P[])).toEqual(expected((d) => [d.n]).filter((e) => e.v >= 4));
  });

  it('float asc and desc, with a float start_from', async () => {
    const asc = await client.scroll('ord', { order_by: { key: 'f', start_from: 2.25 }, limit: 5, with_payload: false });
    expect(entries(asc.points as P[])).toEqual([9, 10, 11, 12, 13].map((id) => ({ id, v: id / 4 })));
    const desc = await client.scroll('ord', { order_by: { key: 'f', direction: 'desc', start_from: 2.3 }, limit: 3, with_payload: false });
    expect(entries(desc.points as P[])).toEqual([9, 8, 7].map((id) => ({ id, v: id / 4 })));
  });

  it('datetime asc and desc: order_value in microseconds; ties by id', async () => {
    const all = expected((d) => [micros(d.at)]);
    const asc = await client.scroll('ord', { order_by: 'at', limit: 100, with_payload: false });
    expect(entries(asc.points as P[])).toEqual(all);
    const desc = await client.scroll('ord', { order_by: { key: 'at', direction: 'desc' }, limit: 100, with_payload: false });
    expect(entries(desc.points as P[])).toEqual(expected((d) => [micros(d.at)], 'desc'));
    expect(asc.points[0]!.order_value).toBe(T0 * 1000);
  });

  it('datetime start_from: RFC 3339 with Z or an offset, without a zone (UTC), a date alone, or a number of microseconds', async () => {
    const from2 = expected((d) => [micros(d.at)]).filter((e) => e.v >= (T0 + 2 * DAY) * 1000);
    for (const start_from of ['2024-01-03T00:00:00Z', '2024-01-03T02:00:00+02:00', '2024-01-03T00:00:00', '2024-01-03', '2024-01-03 00:00:00', (T0 + 2 * DAY) * 1000]) {
      const r = await client.scroll('ord', { order_by: { key: 'at', start_from }, limit: 100, with_payload: false });
      expect(entries(r.points as P[]), String(start_from)).toEqual(from2);
    }
    // Just after midnight: that day's points are behind in asc and ahead in desc.
    const desc = await client.scroll('ord', { order_by: { key: 'at', direction: 'desc', start_from: '2024-01-02T00:00:00.001Z' }, limit: 100, with_payload: false });
    expect(entries(desc.points as P[])).toEqual(expected((d) => [micros(d.at)], 'desc').filter((e) => e.v <= (T0 + DAY) * 1000));
  });

  it('a start_from string that is not a datetime is refused with 400', async () => {
    const r = await scroll({ order_by: { key: 'at', start_from: 'yesterday' } });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toBe("order_by.start_from: 'yesterday' is neither a number nor an RFC 3339 datetime");
  });

  it('direction and start_from may be null (Qdrant clients send them so)', async () => {
    const r = await scroll({ order_by: { key: 'n', direction: null, start_from: null }, limit: 3, with_payload: false });
    expect(r.status).toBe(200);
    expect(entries(r.body.result.points)).toEqual(expected((d) => [d.n]).slice(0, 3));
  });
});

describe('order_by over a multi-valued key', () => {
  it('lists a point once per distinct value, each with that value as order_value', async () => {
    const asc = await client.scroll('ord', { order_by: 'multi', limit: 100, with_payload: false });
    const want = expected((d) => d.multi ?? []);
    expect(entries(asc.points as P[])).toEqual(want);
    expect(want).toHaveLength(11); // 5 points x 2 values, and [7, 7] once
    const desc = await client.scroll('ord', { order_by: { key: 'multi', direction: 'desc', start_from: 96 }, limit: 3, with_payload: false });
    expect(entries(desc.points as P[])).toEqual([
      { id: 4, v: 96 },
      { id: 5, v: 95 },
      { id: 6, v: 7 },
    ]);
  });
});

describe('order_by refusals', () => {
  it('an id offset with order_by: 400 with Qdrant\'s message', async () => {
    const r = await scroll({ order_by: 'n', offset: 5 });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toBe(
      "Cannot use an `offset` when using `order_by`. The alternative for paging is to use `order_by.start_from` and a filter to exclude the IDs that you've already seen for the `order_by.start_from` value",
    );
  });

  it('a key without a range index (none, keyword, integer with range: false): 400 naming the key; checked before the offset', async () => {
    const want = (key: string): string =>
      `No range index for \`order_by\` key: \`${key}\`. Please create one to use \`order_by\`. Integer, float, and datetime payloads can have range indexes, see https://qdrant.tech/documentation/concepts/indexing/#payload-index.`;
    for (const body of [{ order_by: 'nope' }, { order_by: { key: 'tag' } }, { order_by: 'nope', offset: 3 }, { order_by: '__proto__' }, { order_by: 'lookup' }]) {
      const r = await scroll(body);
      expect(r.status).toBe(400);
      const key = typeof body.order_by === 'string' ? body.order_by : body.order_by.key;
      expect(r.body.status.error).toBe(want(key));
    }
    const q = await call(server.url, 'POST', '/collections/ord/points/query', { query: { order_by: 'tag' } });
    expect(q.status).toBe(400);
    expect(q.body.status.error).toBe(want('tag'));
  });

  it('a malformed query order_by: 400 that says what is wrong', async () => {
    const cases: [unknown, string][] = [
      [42, 'query.order_by: expected a key or {key, direction, start_from}'],
      [{ key: 1 }, 'query.order_by: key must be a string'],
      [{ key: 'n', direction: 'up' }, "query.order_by: direction must be 'asc' or 'desc'"],
      [{ key: 'n', start_from: true }, 'query.order_by: start_from must be a number or an RFC 3339 datetime'],
      [{ key: 'n', extra: 1 }, "query.order_by: unknown field 'extra'"],
    ];
    for (const [order_by, msg] of cases) {
      const r = await call(server.url, 'POST', '/collections/ord/points/query', { query: { order_by } });
      expect(r.status).toBe(400);
      expect(r.body.status.error).toBe(msg);
    }
  });
});

describe('paging with order_by', () => {
  // Qdrant's recipe: start from the last value seen, leaving out the ids already seen at it.
  async function pageAll(key: string, direction: 'asc' | 'desc', limit: number): Promise<Entry[]> {
    const seen: Entry[] = [];
    let last: number | null = null;
    let atLast: number[] = [];
    for (let guard = 0; guard < 100; guard++) {
      const r = await client.scroll('ord', {
        order_by: { key, direction, ...(last !== null ? { start_from: last } : {}) },
        limit,
        with_payload: false,
        ...(atLast.length > 0 ? { filter: { must_not: [{ has_id: atLast }] } } : {}),
      });
      expect(r.next_page_offset ?? null).toBeNull();
      const page = entries(r.points as P[]);
      if (page.length === 0) return seen;
      seen.push(...page);
      const v = page[page.length - 1]!.v;
      atLast = v === last ? [...atLast, ...page.filter((e) => e.v === v).map((e) => e.id)] : page.filter((e) => e.v === v).map((e) => e.id);
      last = v;
    }
    throw new Error('paging did not end');
  }

  it('visits every point once, in order, though each value is shared by several points', async () => {
    expect(await pageAll('n', 'asc', 4)).toEqual(expected((d) => [d.n]));
    expect(await pageAll('n', 'desc', 4)).toEqual(expected((d) => [d.n], 'desc'));
    expect(await pageAll('at', 'asc', 7)).toEqual(expected((d) => [micros(d.at)]));
  });

  it('the same page twice is the same: ties cut at the limit are decided by id, not by chance', async () => {
    const a = await client.scroll('ord', { order_by: 'n', limit: 8, with_payload: false });
    const b = await client.scroll('ord', { order_by: 'n', limit: 8, with_payload: false });
    expect(a.points.map((p) => p.id)).toEqual(b.points.map((p) => p.id));
    expect(entries(a.points as P[])).toEqual(expected((d) => [d.n]).slice(0, 8));
  });

  it('with a filter, and the filtered-out points leave no gaps', async () => {
    const r = await client.scroll('ord', { order_by: { key: 'n', direction: 'desc' }, filter: { must: [{ key: 'tag', match: { value: 'even' } }] }, limit: 5, with_payload: ['tag'] });
    expect(entries(r.points as P[])).toEqual(expected((d) => (d.tag === 'even' ? [d.n] : []), 'desc').slice(0, 5));
    expect(r.points.every((p) => p.payload!.tag === 'even')).toBe(true);
  });
});

describe('query with order_by', () => {
  it('orders like scroll; offset skips entries of the ordered list; order_value comes back, score is 1', async () => {
    const all = expected((d) => [d.n], 'desc');
    const r = await client.query('ord', { query: { order_by: { key: 'n', direction: 'desc' } }, limit: 6, offset: 4, with_payload: false });
    expect(r.points.map((p) => ({ id: p.id, v: p.order_value }))).toEqual(all.slice(4, 10));
    // As Qdrant: every entry scores 1; the order is the order_value's.
    expect(r.points.map((p) => p.score)).toEqual([1, 1, 1, 1, 1, 1]);
    const multi = await client.query('ord', { query: { order_by: 'multi' }, limit: 4, offset: 2 });
    expect(multi.points.map((p) => ({ id: p.id, v: p.order_value }))).toEqual(expected((d) => d.multi ?? []).slice(2, 6));
  });

  it('datetime start_from and a filter', async () => {
    const r = await client.query('ord', {
      query: { order_by: { key: 'at', start_from: '2024-01-02' } },
      filter: { must: [{ key: 'tag', match: { value: 'odd' } }] },
      limit: 5,
    });
    const want = expected((d) => (d.tag === 'odd' ? [micros(d.at)] : [])).filter((e) => e.v >= (T0 + DAY) * 1000);
    expect(r.points.map((p) => ({ id: p.id, v: p.order_value }))).toEqual(want.slice(0, 5));
  });
});

describe('order_by through gRPC', () => {
  it('scroll with a desc order and an integer start_from; order_value as int', async () => {
    const g = grpcClient(server);
    const r = await g.api('points').scroll({
      collectionName: 'ord',
      limit: 5,
      orderBy: { key: 'n', direction: 1, startFrom: { value: { case: 'integer', value: 2n } } },
    });
    const want = expected((d) => [d.n], 'desc').filter((e) => e.v <= 2).slice(0, 5);
    expect(r.result.map((p) => ({ id: idOf(p), v: Number(p.orderValue?.variant.value) }))).toEqual(want);
    expect(r.result.every((p) => p.orderValue?.variant.case === 'int')).toBe(true);
    expect(r.nextPageOffset).toBeUndefined();
    // A protobuf Timestamp start on a datetime key.
    const ts = await g.api('points').scroll({
      collectionName: 'ord',
      limit: 4,
      orderBy: { key: 'at', startFrom: { value: { case: 'timestamp', value: { seconds: BigInt((T0 + 2 * DAY) / 1000), nanos: 0 } } } },
    });
    const fromTs = expected((d) => [micros(d.at)]).filter((e) => e.v >= (T0 + 2 * DAY) * 1000).slice(0, 4);
    expect(ts.result.map((p) => ({ id: idOf(p), v: Number(p.orderValue?.variant.value) }))).toEqual(fromTs);
  });

  it('query with a datetime start_from; an id offset on scroll is INVALID_ARGUMENT', async () => {
    const g = grpcClient(server);
    const r = await g.api('points').query({
      collectionName: 'ord',
      query: { variant: { case: 'orderBy', value: { key: 'at', startFrom: { value: { case: 'datetime', value: '2024-01-04T00:00:00Z' } } } } },
      limit: 3n,
    });
    const want = expected((d) => [micros(d.at)]).filter((e) => e.v >= (T0 + 3 * DAY) * 1000).slice(0, 3);
    expect(r.result.map((p) => ({ id: idOf(p), v: Number(p.orderValue?.variant.value) }))).toEqual(want);
    expect(r.result.every((p) => p.score === 1)).toBe(true);
    const bad = await failure(g.api('points').scroll({ collectionName: 'ord', orderBy: { key: 'n' }, offset: { pointIdOptions: { case: 'num', value: 3n } } }));
    expect(bad.code).toBe(3);
    expect(bad.message).toContain('Cannot use an `offset` when using `order_by`');
  });
});

describe('payload selectors with array steps', () => {
  const doc = {
    country: {
      name: 'Germany',
      cities: [
        { name: 'Berlin', population: 3.7, sights: [{ name: 'Gate', year: 1791 }, { name: 'Tower' }] },
        { name: 'Munich', population: 1.5 },
        { population: 0.1 },
      ],
    },
    other: 1,
  };

  beforeAll(async () => {
    await client.createCollection('sel', { vectors: { size: 2, distance: 'Dot' } });
    await client.upsert('sel', { wait: true, points: [{ id: 1, vector: [1, 0], payload: doc }] });
  });

  it('include `a.b[].c` (object and list forms) keeps c in each element', async () => {
    const want = { country: { cities: [{ name: 'Berlin' }, { name: 'Munich' }, {}] } };
    const inc = await client.retrieve('sel', { ids: [1], with_payload: { include: ['country.cities[].name'] } });
    expect(inc[0]!.payload).toEqual(want);
    const list = await client.scroll('sel', { with_payload: ['country.cities[].name'] });
    expect(list.points[0]!.payload).toEqual(want);
    const q = await client.query('sel', { query: [1, 0], with_payload: ['country.cities[].name', 'other'] });
    expect(q.points[0]!.payload).toEqual({ ...want, other: 1 });
  });

  it('nested arrays, and `[]` at the end', async () => {
    const r = await client.retrieve('sel', { ids: [1], with_payload: { include: ['country.cities[].sights[].name'] } });
    expect(r[0]!.payload).toEqual({ country: { cities: [{ sights: [{ name: 'Gate' }, { name: 'Tower' }] }, {}, {}] } });
    const end = await client.retrieve('sel', { ids: [1], with_payload: ['country.cities[]'] });
    expect(end[0]!.payload).toEqual({ country: { cities: doc.country.cities } });
  });

  it('exclude `a.b[].c` removes c from each element', async () => {
    const r = await client.retrieve('sel', { ids: [1], with_payload: { exclude: ['country.cities[].name', 'country.cities[].sights'] } });
    expect(r[0]!.payload).toEqual({ country: { name: 'Germany', cities: [{ population: 3.7 }, { population: 1.5 }, { population: 0.1 }] }, other: 1 });
  });

  it('through gRPC', async () => {
    const g = grpcClient(server);
    const r = await g.api('points').get({
      collectionName: 'sel',
      ids: [{ pointIdOptions: { case: 'num', value: 1n } }],
      withPayload: { selectorOptions: { case: 'include', value: { fields: ['country.cities[].name'] } } },
    });
    expect(jsonPayload(r.result[0]!.payload)).toEqual({ country: { cities: [{ name: 'Berlin' }, { name: 'Munich' }, {}] } });
    const bad = await failure(
      g.api('points').scroll({ collectionName: 'sel', filter: { must: [cond.hasId([1])] }, withPayload: { selectorOptions: { case: 'exclude', value: { fields: ['a..b'] } } } }),
    );
    expect(bad.code).toBe(3);
    expect(bad.message).toBe("with_payload: Invalid json path: 'a..b'");
  });

  it('a malformed key path is refused with 400 naming it', async () => {
    for (const key of ['', 'a..b', 'a.', '.a', 'a[x]', 'a b', 'a[]b']) {
      const r = await call(server.url, 'POST', '/collections/sel/points/scroll', { with_payload: { include: [key] } });
      expect(r.status, key).toBe(400);
      expect(r.body.status.error).toBe(`with_payload: Invalid json path: '${key}'`);
    }
    const list = await call(server.url, 'POST', '/collections/sel/points/query', { with_payload: ['ok', 'a..b'] });
    expect(list.status).toBe(400);
    expect(list.body.status.error).toBe("with_payload: Invalid json path: 'a..b'");
  });
});
