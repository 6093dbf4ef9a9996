// Queries by example through the real server and both official clients: recommend (average_vector,
// best_score, sum_scores), discover and context, at the top level, in prefetch and in batches,
// with filters, offsets, thresholds and lookup_from, each against exact expectations computed
// here from the same vectors (docs/query.md has the formulas).

import { QdrantClient } from '@qdrant/js-client-rest';
import { RecommendStrategy } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient, idOf } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const DIM = 8;
const N = 300;
const r = rng(28);
const rows = Array.from({ length: N }, () => Array.from({ length: DIM }, () => r() * 2 - 1));

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: number[]) => {
  const n = Math.sqrt(dot(a, a));
  return a.map((x) => x / n);
};
const f32 = (a: number[]) => Array.from(Float32Array.from(a));
const fast = (x: number) => x / (1 + Math.abs(x));
const sigmoid = (x: number) => 0.5 * (fast(x) + 1);

type Scorer = (row: number[]) => number;
/** The exact top `limit` of all points but `exclude` (and those `keep` rejects) by `score`, higher first. */
function top(score: Scorer, limit: number, exclude: number[] = [], keep: (id: number) => boolean = () => true, offset = 0) {
  return rows
    .map((row, id) => ({ id, score: score(row) }))
    .filter((h) => !exclude.includes(h.id) && keep(h.id))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(offset, offset + limit);
}
const ids = (hits: { id: number | string }[]) => hits.map((h) => h.id);

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('ex', { vectors: { d: { size: DIM, distance: 'Dot' }, c: { size: DIM, distance: 'Cosine' }, e: { size: DIM, distance: 'Euclid' } }, shard_number: 3 });
  await client.upsert('ex', { wait: true, points: rows.map((row, id) => ({ id, vector: { d: row, c: row, e: row }, payload: { g: id % 3 } })) });
  await client.createCollection('other', { vectors: { b: { size: DIM, distance: 'Dot' } } });
  await client.upsert('other', { wait: true, points: [{ id: 5, vector: { b: rows[200]! } }] });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

const P = [3, 17];
const NEG = [42];
const simD = (id: number) => (row: number[]) => dot(f32(rows[id]!), f32(row));

describe('recommend', () => {
  it('average_vector: the nearest to 2 x mean(positive) - mean(negative), examples left out', async () => {
    const avg = Array.from({ length: DIM }, (_, i) => {
      const p = (f32(rows[3]!)[i]! + f32(rows[17]!)[i]!) / 2;
      return p + (p - f32(rows[42]!)[i]!);
    });
    const want = top((row) => dot(f32(avg), f32(row)), 10, [...P, ...NEG]);
    const got = await client.query('ex', { query: { recommend: { positive: P, negative: NEG } }, using: 'd', limit: 10 });
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 4));
    // Only positives: their mean; a raw vector is an example too.
    const mean = (a: number[], b: number[]) => a.map((x, i) => (x + b[i]!) / 2);
    const want2 = top((row) => dot(f32(mean(f32(rows[3]!), f32(rows[100]!))), f32(row)), 5, [3]);
    const got2 = await client.query('ex', { query: { recommend: { positive: [3, rows[100]!] } }, using: 'd', limit: 5 });
    expect(ids(got2.points)).toEqual(ids(want2));
  });

  it('best_score: the best positive if it beats the best negative, squashed; else minus the best negative, squashed', async () => {
    const score: Scorer = (row) => {
      const pos = Math.max(...P.map((id) => simD(id)(row)));
      const neg = Math.max(...NEG.map((id) => simD(id)(row)));
      return pos > neg ? sigmoid(pos) : -sigmoid(neg);
    };
    const want = top(score, 10, [...P, ...NEG]);
    const got = await client.query('ex', { query: { recommend: { positive: P, negative: NEG, strategy: 'best_score' } }, using: 'd', limit: 10 });
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
    // Negatives alone: the points farthest from them.
    const onlyNeg = await client.query('ex', { query: { recommend: { negative: NEG, strategy: 'best_score' } }, using: 'd', limit: 5 });
    expect(ids(onlyNeg.points)).toEqual(ids(top((row) => -sigmoid(simD(42)(row)), 5, NEG)));
  });

  it('sum_scores: the positives summed minus the negatives summed, with filter, offset and score_threshold', async () => {
    const score: Scorer = (row) => P.reduce((s, id) => s + simD(id)(row), 0) - NEG.reduce((s, id) => s + simD(id)(row), 0);
    const keep = (id: number) => id % 3 === 1;
    const want = top(score, 6, [...P, ...NEG], keep, 2);
    const got = await client.query('ex', {
      query: { recommend: { positive: P, negative: NEG, strategy: 'sum_scores' } },
      using: 'd',
      filter: { must: [{ key: 'g', match: { value: 1 } }] },
      limit: 6,
      offset: 2,
      with_payload: true,
    });
    expect(ids(got.points)).toEqual(ids(want));
    expect(got.points.every((p) => p.payload?.g === 1)).toBe(true);
    const threshold = want[2]!.score;
    const above = await client.query('ex', {
      query: { recommend: { positive: P, negative: NEG, strategy: 'sum_scores' } },
      using: 'd',
      filter: { must: [{ key: 'g', match: { value: 1 } }] },
      score_threshold: threshold,
      limit: 50,
    });
    expect(above.points.every((p) => p.score >= threshold)).toBe(true);
    expect(above.points.length).toBe(top(score, 50, [...P, ...NEG], keep).filter((h) => h.score >= threshold).length);
  });

  it('Cosine: examples compared as unit vectors', async () => {
    const simC = (id: number) => (row: number[]) => dot(norm(f32(rows[id]!)), norm(f32(row)));
    const score: Scorer = (row) => Math.max(...P.map((id) => simC(id)(row)));
    const want = top((row) => sigmoid(score(row)), 5, P);
    const got = await client.query('ex', { query: { recommend: { positive: P, strategy: 'best_score' } }, using: 'c', limit: 5 });
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
  });
});

describe('Euclid', () => {
  it('similarity is the negated squared distance, and a custom score is not turned back into a distance', async () => {
    const sq = (a: number[], b: number[]) => a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0);
    const score: Scorer = (row) => P.reduce((s, id) => s - sq(f32(rows[id]!), f32(row)), 0);
    const want = top(score, 5, P);
    const got = await client.query('ex', { query: { recommend: { positive: P, strategy: 'sum_scores' } }, using: 'e', limit: 5 });
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 4));
    // average_vector is a nearest search: its scores are distances, smallest first.
    const avg = await client.query('ex', { query: { recommend: { positive: [3] } }, using: 'e', limit: 3 });
    expect(ids(avg.points)).toEqual(ids(top((row) => -sq(f32(rows[3]!), f32(row)), 3, [3])));
    expect(avg.points[0]!.score).toBeCloseTo(Math.sqrt(sq(f32(rows[3]!), f32(rows[avg.points[0]!.id as number]!))), 4);
  });
});

describe('discover and context', () => {
  const pairs = [
    { positive: 10, negative: 11 },
    { positive: 12, negative: 13 },
  ];
  const rank = (row: number[]) => pairs.reduce((s, p) => s + Math.sign(simD(p.positive)(row) - simD(p.negative)(row)), 0);
  const examples = [7, 10, 11, 12, 13];

  it('discover: pairs ranked, plus the target similarity squashed', async () => {
    const want = top((row) => rank(row) + sigmoid(simD(7)(row)), 10, examples);
    const got = await client.query('ex', { query: { discover: { target: 7, context: pairs } }, using: 'd', limit: 10 });
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
  });

  it('context: the sum of each pair shortfall, squashed (0 when nearer the positive)', async () => {
    const loss = (row: number[]) => pairs.reduce((s, p) => s + fast(Math.min(simD(p.positive)(row) - simD(p.negative)(row) - 2 ** -23, 0)), 0);
    const want = top(loss, 10, examples.slice(1));
    const got = await client.query('ex', { query: { context: pairs }, using: 'd', limit: 10 });
    expect(got.points.map((p) => p.score)).toEqual(want.map((h) => expect.closeTo(h.score, 5)));
    // Every point that loses nothing scores 0: the top of a context query is a tie at 0.
    expect(got.points[0]!.score).toBeCloseTo(0, 6);
  });
});

describe('in prefetch, batches, lookup_from and over gRPC', () => {
  it('rescores a prefetch: only its candidates are scored', async () => {
    const near = top(simD(0), 40, [0]);
    const score: Scorer = (row) => P.reduce((s, id) => s + simD(id)(row), 0);
    const want = top(score, 5, [...P], (id) => ids(near).includes(id));
    const got = await client.query('ex', {
      prefetch: { query: 0, using: 'd', limit: 40 },
      query: { recommend: { positive: P, strategy: 'sum_scores' } },
      using: 'd',
      limit: 5,
    });
    expect(ids(got.points)).toEqual(ids(want));
  });

  it('a recommend inside a prefetch feeds the fusion above it', async () => {
    const got = await client.query('ex', {
      prefetch: [
        { query: { recommend: { positive: P, strategy: 'best_score' } }, using: 'd', limit: 20 },
        { query: { discover: { target: 7, context: { positive: 10, negative: 11 } } }, using: 'd', limit: 20 },
      ],
      query: { fusion: 'rrf' },
      limit: 5,
    });
    expect(got.points).toHaveLength(5);
  });

  it('query/batch: each request answered as alone', async () => {
    const reqs = [
      { query: { recommend: { positive: P } }, using: 'd', limit: 3 },
      { query: { context: { positive: 10, negative: 11 } }, using: 'd', limit: 3 },
    ];
    const batch = await client.queryBatch('ex', { searches: reqs });
    for (let i = 0; i < reqs.length; i++) expect(ids(batch[i]!.points)).toEqual(ids((await client.query('ex', reqs[i]!)).points));
  });

  it('lookup_from: ids read from another collection and vector, and not left out', async () => {
    const want = top(simD(200), 3);
    const got = await client.query('ex', { query: { recommend: { positive: [5] } }, using: 'd', lookup_from: { collection: 'other', vector: 'b' }, limit: 3 });
    expect(ids(got.points)).toEqual(ids(want));
    // A nearest query by id reads its vector there too.
    const near = await client.query('ex', { query: 5, using: 'd', lookup_from: { collection: 'other', vector: 'b' }, limit: 3 });
    expect(ids(near.points)).toEqual(ids(want));
  });

  it('gRPC: the same answers as REST', async () => {
    const grpc = grpcClient(server);
    const idIn = (n: number) => ({ variant: { case: 'id' as const, value: { pointIdOptions: { case: 'num' as const, value: BigInt(n) } } } });
    const res = await grpc.api('points').query({
      collectionName: 'ex',
      using: 'd',
      limit: 10n,
      query: { variant: { case: 'recommend', value: { positive: P.map(idIn), negative: NEG.map(idIn), strategy: RecommendStrategy.BestScore } } },
    });
    const rest = await client.query('ex', { query: { recommend: { positive: P, negative: NEG, strategy: 'best_score' } }, using: 'd', limit: 10 });
    expect(res.result.map(idOf)).toEqual(ids(rest.points));
    const disc = await grpc.api('points').query({
      collectionName: 'ex',
      using: 'd',
      limit: 5n,
      query: { variant: { case: 'discover', value: { target: idIn(7), context: { pairs: [{ positive: idIn(10), negative: idIn(11) }] } } } },
    });
    const restDisc = await client.query('ex', { query: { discover: { target: 7, context: [{ positive: 10, negative: 11 }] } }, using: 'd', limit: 5 });
    expect(disc.result.map(idOf)).toEqual(ids(restDisc.points));
    const ctx = await grpc.api('points').query({
      collectionName: 'ex',
      using: 'd',
      limit: 5n,
      query: { variant: { case: 'context', value: { pairs: [{ positive: idIn(10), negative: idIn(11) }] } } },
      lookupFrom: { collectionName: 'ex', vectorName: 'd' },
    });
    expect(ctx.result).toHaveLength(5);
    const feedback = { target: 9, feedback: [{ example: 20, score: 1 }, { example: 21, score: 0 }], strategy: { naive: { a: 1, b: 1, c: 0.5 } } };
    const fb = await grpc.api('points').query({
      collectionName: 'ex',
      using: 'd',
      limit: 5n,
      query: {
        variant: {
          case: 'relevanceFeedback',
          value: { target: idIn(9), feedback: feedback.feedback.map((f) => ({ example: idIn(f.example), score: f.score })), strategy: { variant: { case: 'naive', value: feedback.strategy.naive } } },
        },
      },
    });
    const restFb = await client.query('ex', { query: { relevance_feedback: feedback }, using: 'd', limit: 5 } as never);
    expect(fb.result.map(idOf)).toEqual(ids(restFb.points));
  });

  it('answers bad examples with their errors', async () => {
    const q = (body: object) => call(server.url, 'POST', '/collections/ex/points/query', { using: 'd', limit: 3, ...body });
    expectError(await q({ query: { recommend: { positive: [99999] } } }), 404, 'No point with id 99999 found');
    expectError(await q({ query: { recommend: {} } }), 422, 'Validation error in JSON body: [query.recommend: At least one positive or negative vector/id must be provided]');
    expectError(await q({ query: { recommend: { negative: [1] } } }), 400, 'Wrong input: Validation failed: Positive vectors should not be empty with `average` strategy');
    expectError(await q({ query: { recommend: { positive: [1], strategy: 'worst' } } }), 400, "Unknown recommend strategy 'worst'");
    expectError(await q({ query: { recommend: { positive: [[1, 2]] } } }), 400, "Dimension mismatch for vector 'd': expected 8, got 2");
    expectError(await q({ query: { discover: { context: [] } } }), 400, 'discover.target is required');
    expectError(await q({ query: { context: [{ positive: 1 }] } }), 400, 'a context pair needs a positive and a negative example');
    expectError(await q({ query: { context: [] } }), 400, 'No context pairs given');
    expectError(await q({ query: { recommend: { positive: [1] } }, lookup_from: { collection: 'nope' } }), 404, 'Not found: Collection nope not found');
    expect((await q({ query: { discover: { target: 5, context: [] } }, lookup_from: { collection: 'other', vector: 'b' } })).status).toBe(200);
    expectError(await q({ query: { recommend: { positive: [1] } }, lookup_from: { collection: 'other', vector: 'zz' } }), 400, 'Not existing vector name error: zz');
    expectError(await q({ query: { recommend: { positive: [1] } }, using: 'zz' }), 400, 'Not existing vector name error: zz');
  });
});

describe('relevance feedback and the ids a request names', () => {
  it('relevance_feedback (naive): a x sim(target) + best-with-worst pairs weighted (diff^b x c)', async () => {
    const items = [
      { example: 20, score: 0.9 },
      { example: 21, score: 0.1 },
      { example: 22, score: 0.5 },
      { example: 23, score: 0.5 },
      { example: 24, score: 0.3 },
    ];
    const [a, b, c] = [0.7, 1.5, 0.3];
    // By score: 20 (0.9), 22 and 23 (0.5), 24 (0.3), 21 (0.1): pairs (20, 21) and (22 or 23, 24).
    const sorted = [...items].sort((x, y) => y.score - x.score);
    const pairs = [0, 1].map((i) => [sorted[i]!, sorted[sorted.length - 1 - i]!] as const);
    const score: Scorer = (row) => pairs.reduce((s, [hi, lo]) => s + (hi.score - lo.score) ** b * c * (simD(hi.example)(row) - simD(lo.example)(row)), a * simD(9)(row));
    const want = top(score, 8, [9, 20, 21, 22, 23, 24]);
    const got = await client.query('ex', { query: { relevance_feedback: { target: 9, feedback: items, strategy: { naive: { a, b, c } } } }, using: 'd', limit: 8 } as never);
    expect(ids(got.points)).toEqual(ids(want));
    got.points.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 4));
    const q = (body: object) => call(server.url, 'POST', '/collections/ex/points/query', { using: 'd', limit: 3, ...body });
    expectError(await q({ query: { relevance_feedback: { target: 9, feedback: [], strategy: { naive: { a, b, c } } } } }), 422, 'feedback elements must be non-empty');
    expectError(await q({ query: { relevance_feedback: { target: 9, feedback: items, strategy: { naive: { a, b: -1, c } } } } }), 422, 'must be 0 or larger');
  });

  it('a point named anywhere in the request is left out of every result, fusion included', async () => {
    const got = await client.query('ex', {
      prefetch: [
        { query: 3, using: 'd', limit: 20 },
        { query: rows[3]!, using: 'd', limit: 20 },
      ],
      query: { fusion: 'rrf' },
      limit: 40,
    });
    // The raw vector of point 3 would find point 3 first; it is named by the other prefetch.
    expect(ids(got.points)).not.toContain(3);
    expect(got.points).toHaveLength(20);
  });
});

describe('sparse vectors', () => {
  const rs = rng(12);
  const sparseRows = Array.from({ length: 60 }, () => {
    const idx = [...new Set(Array.from({ length: 4 }, () => Math.floor(rs() * 12)))].sort((a, b) => a - b);
    return { indices: idx, values: idx.map(() => Math.fround(rs() + 0.1)) };
  });
  const sdot = (a: { indices: number[]; values: number[] }, b: { indices: number[]; values: number[] }) =>
    a.indices.reduce((s, i, k) => {
      const j = b.indices.indexOf(i);
      return j < 0 ? s : s + a.values[k]! * b.values[j]!;
    }, 0);
  const topSparse = (score: (id: number) => number, limit: number, exclude: number[]) =>
    sparseRows
      .map((_, id) => ({ id, score: score(id) }))
      .filter((h) => !exclude.includes(h.id))
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, limit);

  it('recommend, discover and context take sparse examples: ids, sparse vectors and documents', async () => {
    await client.createCollection('sp', { sparse_vectors: { s: {} }, shard_number: 2 });
    await client.upsert('sp', { wait: true, points: sparseRows.map((v, id) => ({ id, vector: { s: v } })) });
    const sim = (e: number) => (id: number) => sdot(sparseRows[e]!, sparseRows[id]!);
    // best_score over ids
    const best = await client.query('sp', { query: { recommend: { positive: [1, 2], negative: [3], strategy: 'best_score' } }, using: 's', limit: 5 });
    const want = topSparse(
      (id) => {
        const p = Math.max(sim(1)(id), sim(2)(id));
        const n = sim(3)(id);
        return p > n ? 0.5 * (p / (1 + p) + 1) : -0.5 * (n / (1 + n) + 1);
      },
      5,
      [1, 2, 3],
    );
    expect(best.points.map((p) => p.score)).toEqual(want.map((h) => expect.closeTo(h.score, 5)));
    // average_vector: the sparse mean, searched as a sparse query
    const avg = await client.query('sp', { query: { recommend: { positive: [1, sparseRows[4]!] } }, using: 's', limit: 5 });
    const mean = (id: number) => (sim(1)(id) + sim(4)(id)) / 2;
    expect(avg.points.map((p) => p.score)).toEqual(topSparse(mean, 5, [1]).map((h) => expect.closeTo(h.score, 5)));
    // discover with a raw sparse target
    const disc = await client.query('sp', { query: { discover: { target: sparseRows[7]!, context: [{ positive: 8, negative: 9 }] } }, using: 's', limit: 5 });
    const dscore = (id: number) => Math.sign(sim(8)(id) - sim(9)(id)) + 0.5 * (sim(7)(id) / (1 + Math.abs(sim(7)(id))) + 1);
    expect(disc.points.map((p) => p.score)).toEqual(topSparse(dscore, 5, [8, 9]).map((h) => expect.closeTo(h.score, 5)));
    // a document as an example is embedded as a query; a dense example is refused
    const docEx = await client.query('sp', { query: { recommend: { positive: [{ text: 'anything', model: 'qdrant/bm25' }] } } as never, using: 's', limit: 3 });
    expect(docEx.points.length).toBeLessThanOrEqual(3);
    expectError(await call(server.url, 'POST', '/collections/sp/points/query', { query: { recommend: { positive: [[1, 2]] } }, using: 's' }), 400, "Vector 's' is sparse");
    expectError(await call(server.url, 'POST', '/collections/sp/points/query', { query: { recommend: { positive: [{ indices: 5, values: 5 }] } }, using: 's' }), 400, "Vector 's': a sparse example needs arrays of numbers");
    // An example without the vector is dropped by recommend; with none left there is nothing to score by.
    await client.createCollection('mix', { vectors: { a: { size: 2, distance: 'Dot' }, b: { size: 2, distance: 'Dot' } } });
    await client.upsert('mix', { wait: true, points: [{ id: 1, vector: { a: [1, 0] } }, { id: 2, vector: { a: [0, 1], b: [0, 1] } }] });
    expectError(await call(server.url, 'POST', '/collections/mix/points/query', { query: { recommend: { positive: [1], strategy: 'best_score' } }, using: 'b' }), 400, 'none of the examples has vector "b"');
    const kept = await client.query('mix', { query: { recommend: { positive: [1, [1, 1]], strategy: 'sum_scores' } }, using: 'b' });
    expect(kept.points.map((p) => p.id)).toEqual([2]);
  });
});

describe('on a graph', () => {
  it('custom scores over graph candidates find the exact top', async () => {
    // full_scan_threshold 0: every shard is past it, so candidates come from graph searches.
    await client.createCollection('big', { vectors: { size: DIM, distance: 'Dot' }, hnsw_config: { full_scan_threshold: 0 }, shard_number: 2 });
    await client.upsert('big', { wait: true, points: rows.map((vector, id) => ({ id, vector })) });
    const score: Scorer = (row) => Math.max(...P.map((id) => simD(id)(row)));
    const want = top((row) => sigmoid(score(row)), 10, P);
    const got = await client.query('big', { query: { recommend: { positive: P, strategy: 'best_score' } }, params: { hnsw_ef: 64 }, limit: 10 });
    expect(ids(got.points)).toEqual(ids(want));
  });
});
