// The distance matrix through the real server and both official clients: pairs and offsets
// against the exact nearest neighbours among the sample, computed here; sampling, filters, named
// vectors, points without the vector, and every bad request with its status and message.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors-server.js';
import { grpcClient, idOf } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const r = rng(5);
const rows = new Map(Array.from({ length: 8 }, (_, i) => [i + 1, Array.from({ length: 4 }, () => Math.fround(r() * 2 - 1))]));
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** Each of `ids` (sorted) with its `limit` best others among `ids` by dot product. */
function expected(ids: number[], limit: number) {
  return ids.flatMap((a) =>
    ids
      .filter((b) => b !== a)
      .map((b) => ({ a, b, score: dot(rows.get(a)!, rows.get(b)!) }))
      .sort((x, y) => y.score - x.score || x.b - y.b)
      .slice(0, limit),
  );
}

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('m', { vectors: { v: { size: 4, distance: 'Dot' }, w: { size: 2, distance: 'Cosine' } }, shard_number: 2 });
  await client.upsert('m', { wait: true, points: [...rows].map(([id, v]) => ({ id, vector: { v }, payload: { even: id % 2 === 0 } })) });
  // Point 100 has only `w`: never sampled for `v`.
  await client.upsert('m', { wait: true, points: [{ id: 100, vector: { w: [1, 0] } }] });
});
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('distance matrix', () => {
  it('pairs: every sampled point with its nearest others, grouped by id, best first', async () => {
    const res = await client.searchMatrixPairs('m', { sample: 10, limit: 2, using: 'v' });
    const want = expected([1, 2, 3, 4, 5, 6, 7, 8], 2);
    expect(res.pairs.map((p) => [p.a, p.b])).toEqual(want.map((p) => [p.a, p.b]));
    res.pairs.forEach((p, i) => expect(p.score).toBeCloseTo(want[i]!.score, 5));
  });

  it('offsets: the same matrix, rows and columns indexing the ids', async () => {
    const res = await client.searchMatrixOffsets('m', { sample: 10, limit: 2, using: 'v' });
    expect(res.ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const want = expected([1, 2, 3, 4, 5, 6, 7, 8], 2);
    expect(res.offsets_row.map((row, k) => [res.ids[row], res.ids[res.offsets_col[k]!]])).toEqual(want.map((p) => [p.a, p.b]));
    expect(res.scores.length).toBe(want.length);
  });

  it('samples at random among the points the filter lets through; defaults sample 10, limit 3', async () => {
    const some = await client.searchMatrixOffsets('m', { sample: 3, limit: 5, using: 'v' });
    expect(some.ids).toHaveLength(3);
    expect([...some.ids].sort()).toEqual(some.ids);
    expect(some.offsets_row.filter((row) => row === 0)).toHaveLength(2);
    const even = await client.searchMatrixPairs('m', { using: 'v', filter: { must: [{ key: 'even', match: { value: true } }] } });
    expect(even.pairs.map((p) => [p.a, p.b])).toEqual(expected([2, 4, 6, 8], 3).map((p) => [p.a, p.b]));
    // Fewer than two points: an empty matrix.
    const one = await client.searchMatrixOffsets('m', { using: 'v', filter: { must: [{ has_id: [3] }] } });
    expect(one).toEqual({ offsets_row: [], offsets_col: [], scores: [], ids: [] });
    // Only point 100 has `w`: one point, no pairs.
    const w = await client.searchMatrixPairs('m', { using: 'w' });
    expect(w.pairs.map((p) => [p.a, p.b])).toEqual([]);
  });

  it('answers bad requests with Qdrant statuses and messages', async () => {
    const post = (path: string, body: object) => call(server.url, 'POST', `/collections/m/points/search/matrix/${path}`, body);
    expectError(await post('pairs', { sample: 1 }), 422, 'Validation error in JSON body: [sample: value 1 invalid, must be 2 or larger]');
    expectError(await post('offsets', { limit: 0, using: 'v' }), 422, 'Validation error in JSON body: [limit: value 0 invalid, must be 1 or larger]');
    expectError(await post('pairs', { using: 'zz' }), 400, 'Not existing vector name error: zz');
    expectError(await post('pairs', { sample: -1 }), 400, 'Format error in JSON body');
    expectError(await call(server.url, 'POST', '/collections/nope/points/search/matrix/pairs', {}), 404, 'nope');
  });

  it('gRPC: the same matrix', async () => {
    const grpc = grpcClient(server);
    const pairs = await grpc.api('points').searchMatrixPairs({ collectionName: 'm', sample: 10n, limit: 2n, using: 'v' });
    expect(pairs.result?.pairs.map((p) => [idOf({ id: p.a }), idOf({ id: p.b })])).toEqual(expected([1, 2, 3, 4, 5, 6, 7, 8], 2).map((p) => [p.a, p.b]));
    const offsets = await grpc.api('points').searchMatrixOffsets({ collectionName: 'm', sample: 10n, limit: 1n, using: 'v' });
    expect(offsets.result?.ids.map((id) => idOf({ id }))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(offsets.result?.offsetsRow.map(Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const bad = await grpc.api('points').searchMatrixPairs({ collectionName: 'm', sample: 1n }).catch((e: unknown) => e);
    expect((bad as { code?: number }).code).toBe(3);
  });
});
