// Score boosting (`formula`) through the real server and both official clients: each operator,
// variables with and without defaults, conditions, dates, geo distance and the decays, over one
// or several prefetches, against values computed here; every error with its status and message.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient, idOf } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const N = 40;
const r = rng(9);
const rows = Array.from({ length: N }, () => Array.from({ length: 4 }, () => Math.fround(r() * 2 - 1)));
const payloads = rows.map((_, id) => ({
  ...(id % 5 === 0 ? {} : { price: (id % 7) + 1 }),
  tag: id % 2 === 0 ? 'a' : 'b',
  when: new Date(Date.UTC(2026, 0, 1 + id)).toISOString(),
  loc: { lat: 52 + id / 100, lon: 13 + id / 100 },
}));
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const Q = [0.3, -0.2, 0.9, 0.1];
const scoreOf = (id: number) => dot(rows[id]!, Q.map(Math.fround));

/** Every point ranked by `f` (a point's value, or undefined to leave it out), best first, as float32. */
function rank(f: (id: number) => number, limit = N) {
  return rows
    .map((_, id) => ({ id, score: Math.fround(f(id)) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit);
}
const ids = (hits: { id: number | string }[]) => hits.map((h) => h.id);
const prefetch = { query: Q, limit: N };

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('f', { vectors: { size: 4, distance: 'Dot' }, shard_number: 2 });
  await client.upsert('f', { wait: true, points: rows.map((vector, id) => ({ id, vector, payload: payloads[id]! })) });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const query = (formula: unknown, extra: object = {}) => client.query('f', { prefetch, query: { formula, ...extra } as never, limit: N });

describe('formula', () => {
  it('sum, mult and a payload variable with a default', async () => {
    const got = await query({ sum: ['$score', { mult: [0.5, 'price'] }] }, { defaults: { price: 0 } });
    const want = rank((id) => scoreOf(id) + 0.5 * (payloads[id]!.price ?? 0));
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
  });

  it('a condition counts 1 where it matches and 0 elsewhere', async () => {
    const got = await query({ sum: ['$score', { mult: [10, { key: 'tag', match: { value: 'a' } }] }] });
    const want = rank((id) => scoreOf(id) + (payloads[id]!.tag === 'a' ? 10 : 0));
    expect(ids(got.points)).toEqual(ids(want));
  });

  it('neg, abs, div (by_zero_default), sqrt, pow, exp, log10 and ln', async () => {
    const formula = {
      sum: [
        { neg: { abs: '$score' } },
        { div: { left: 1, right: { sum: ['price', -3] }, by_zero_default: 100 } },
        { sqrt: 'price' },
        { pow: { base: 'price', exponent: 2 } },
        { exp: { mult: [0.1, 'price'] } },
        { log10: 'price' },
        { ln: 'price' },
      ],
    };
    const f = (id: number) => {
      const p = payloads[id]!.price ?? 2;
      return -Math.abs(scoreOf(id)) + (p - 3 === 0 ? 100 : 1 / (p - 3)) + Math.sqrt(p) + p ** 2 + Math.exp(0.1 * p) + Math.log10(p) + Math.log(p);
    };
    const got = await query(formula, { defaults: { price: 2 } });
    const want = rank(f);
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 3));
  });

  it('decays over dates, geo distance and numbers', async () => {
    const origin = { lat: 52.1, lon: 13.1 };
    const hav = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
      const rad = (d: number) => (d * Math.PI) / 180;
      const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lon - a.lon) / 2) ** 2;
      return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
    };
    const target = Date.UTC(2026, 0, 20) / 1000;
    const formula = {
      sum: [
        { gauss_decay: { x: { datetime_key: 'when' }, target: { datetime: '2026-01-20T00:00:00Z' }, scale: 86400 * 5 } },
        { exp_decay: { x: { geo_distance: { origin, to: 'loc' } }, scale: 5000, midpoint: 0.25 } },
        { lin_decay: { x: 'price', target: 4, scale: 2 } },
      ],
    };
    const f = (id: number) => {
      const p = payloads[id]!;
      const d = Date.parse(p.when) / 1000 - target;
      return Math.exp((Math.log(0.5) / (86400 * 5) ** 2) * d * d) + Math.exp((Math.log(0.25) / 5000) * hav(origin, p.loc)) + Math.max(0, 1 - (0.5 / 2) * Math.abs((p.price ?? 4) - 4));
    };
    const got = await query(formula, { defaults: { price: 4 } });
    const want = rank(f);
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 4));
  });

  it('over two prefetches: $score[i] per prefetch, a default for points one did not find', async () => {
    const other = [-0.5, 0.5, 0.1, 0.2];
    const near = (v: number[], k: number) => new Set(rank((id) => dot(rows[id]!, v.map(Math.fround)), k).map((h) => h.id));
    const a = near(Q, 10);
    const b = near(other, 10);
    const got = await client.query('f', {
      prefetch: [{ query: Q, limit: 10 }, { query: other, limit: 10 }],
      query: { formula: { sum: ['$score', { mult: [2, '$score[1]'] }] }, defaults: { '$score[1]': -1 } } as never,
      limit: 20,
    });
    const union = [...new Set([...a, ...b])];
    const f = (id: number) => (a.has(id) ? scoreOf(id) : 0) + 2 * (b.has(id) ? dot(rows[id]!, other.map(Math.fround)) : -1);
    const want = union.map((id) => ({ id, score: Math.fround(f(id)) })).sort((x, y) => y.score - x.score || x.id - y.id);
    expect(ids(got.points)).toEqual(ids(want));
  });

  it('score_threshold keeps scores at or above it; offset and with_payload as for any query', async () => {
    const all = rank((id) => payloads[id]!.price ?? 0);
    const threshold = all[5]!.score;
    const got = await client.query('f', { prefetch, query: { formula: 'price', defaults: { price: 0 } } as never, score_threshold: threshold, limit: N, offset: 1, with_payload: ['price'] });
    const kept = all.filter((h) => h.score >= threshold);
    expect(got.points.map((p) => p.score)).toEqual(kept.slice(1).map((h) => h.score));
    expect(got.points.every((p) => p.payload !== null && p.payload !== undefined && !('tag' in p.payload))).toBe(true);
  });

  it('answers bad formulas with Qdrant statuses and messages', async () => {
    const q = (body: object) => call(server.url, 'POST', '/collections/f/points/query', { limit: 3, ...body });
    expectError(await q({ query: { formula: '$score' } }), 400, 'cannot apply Formula without prefetches');
    expectError(await q({ prefetch, query: { formula: 'price' } }), 400, 'Expected number value for price in the payload and/or in the formula defaults. Error: No value found in a payload nor defaults');
    expectError(await q({ prefetch, query: { formula: 'tag' } }), 400, 'Expected number value for tag in the payload and/or in the formula defaults. Error: Value is not a number');
    expectError(await q({ prefetch, query: { formula: { div: { left: 1, right: 0 } } } }), 400, 'The expression 1/0 = Infinity produced a non-finite number');
    expectError(await q({ prefetch, query: { formula: { sqrt: -4 } } }), 400, 'produced a non-finite number');
    expectError(await q({ prefetch, query: { formula: { ln: 0 } } }), 400, 'produced a non-finite number');
    expectError(await q({ prefetch, query: { formula: { exp_decay: { x: 1, midpoint: 1.5 } } } }), 400, 'Decay midpoint should be in the range (0.0, 1.0), got 1.5.');
    expectError(await q({ prefetch, query: { formula: { lin_decay: { x: 1, scale: 0 } } } }), 400, 'Decay scale should be non-zero positive, got 0.');
    expectError(await q({ prefetch, query: { formula: '$foo' } }), 400, 'Invalid reserved word: $foo');
    expectError(await q({ prefetch, query: { formula: '$score.x' } }), 400, 'Invalid reserved variable: $score.x');
    expectError(await q({ prefetch, query: { formula: { datetime: 'yesterday' } } }), 400, 'failed to parse date-time yesterday');
    expectError(await q({ prefetch, query: { formula: { pow: { base: 10, exponent: 400 } } } }), 400, 'produced a non-finite number');
  });

  it('gRPC: the same formula, the same ranking', async () => {
    const grpc = grpcClient(server);
    const res = await grpc.api('points').query({
      collectionName: 'f',
      limit: BigInt(N),
      prefetch: [{ query: { variant: { case: 'nearest', value: { variant: { case: 'dense', value: { data: Q } } } } }, limit: BigInt(N) }],
      query: {
        variant: {
          case: 'formula',
          value: {
            expression: {
              variant: {
                case: 'sum',
                value: {
                  sum: [
                    { variant: { case: 'variable', value: '$score' } },
                    { variant: { case: 'mult', value: { mult: [{ variant: { case: 'constant', value: 0.5 } }, { variant: { case: 'variable', value: 'price' } }] } } },
                    { variant: { case: 'condition', value: { conditionOneOf: { case: 'field', value: { key: 'tag', match: { matchValue: { case: 'keyword', value: 'a' } } } } } } },
                  ],
                },
              },
            },
            defaults: { price: { kind: { case: 'doubleValue', value: 0 } } },
          },
        },
      },
    });
    const rest = await query({ sum: ['$score', { mult: [0.5, 'price'] }, { key: 'tag', match: { value: 'a' } }] }, { defaults: { price: 0 } });
    expect(res.result.map(idOf)).toEqual(ids(rest.points));
  });
});
