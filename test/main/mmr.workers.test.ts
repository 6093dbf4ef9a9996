// Query `{nearest, mmr}` (Maximal Marginal Relevance) through @qdrant/js-client-rest and the gRPC
// client, as LangChain's maxMarginalRelevanceSearch sends it. Four tight clusters of points; the
// query sits in cluster A, so plain nearest returns only A while MMR with diversity spreads over
// clusters. MMR keeps each point's search score; diversity 0 is plain nearest.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient, idOf } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;

const CENTERS: Record<string, number[]> = { A: [1, 0, 0, 0], B: [0.8, 0.6, 0, 0], C: [0.8, 0, 0.6, 0], D: [0, 0, 0, 1] };
const PER = 10;
const points: { id: number; cluster: string; v: number[] }[] = [];
const random = rng(7);
Object.entries(CENTERS).forEach(([cluster, c], ci) => {
  for (let j = 0; j < PER; j++) points.push({ id: ci * PER + j, cluster, v: c.map((x) => x + (random() - 0.5) * 0.02) });
});
const clusterOf = new Map(points.map((p) => [p.id, p.cluster]));
const q = [1, 0.05, 0.05, 0];

type Scored = { id: string | number; score: number; payload?: Record<string, unknown> | null; vector?: unknown };

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url });
  await client.createCollection('m', { vectors: { c: { size: 4, distance: 'Cosine' }, e: { size: 4, distance: 'Euclid' } } });
  await client.upsert('m', { wait: true, points: points.map((p) => ({ id: p.id, vector: { c: p.v, e: p.v }, payload: { cluster: p.cluster } })) });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

async function query(body: Record<string, unknown>): Promise<Scored[]> {
  return (await client.query('m', body)).points as Scored[];
}

describe.each(['c', 'e'])('MMR on vector %s', (using) => {
  it('with diversity 0 gives plain nearest, ids and scores', async () => {
    const plain = await query({ query: q, using, limit: 5 });
    const mmr = await query({ query: { nearest: q, mmr: { diversity: 0, candidates_limit: 40 } }, using, limit: 5 });
    expect(mmr.map((p) => p.id)).toEqual(plain.map((p) => p.id));
    mmr.forEach((p, i) => expect(p.score).toBeCloseTo(plain[i]!.score, 6));
    expect(new Set(plain.map((p) => clusterOf.get(Number(p.id))))).toEqual(new Set(['A']));
  });

  it('with diversity picks from different clusters, starting with the nearest, keeping search scores', async () => {
    const all = new Map((await query({ query: q, using, limit: 40 })).map((p) => [p.id, p.score]));
    const mmr = await query({ query: { nearest: q, mmr: { diversity: 0.8, candidates_limit: 40 } }, using, limit: 3 });
    expect(mmr).toHaveLength(3);
    expect(mmr[0]!.id).toBe((await query({ query: q, using, limit: 1 }))[0]!.id);
    expect(new Set(mmr.map((p) => clusterOf.get(Number(p.id)))).size).toBe(3);
    for (const p of mmr) expect(p.score).toBeCloseTo(all.get(p.id)!, 6);
  });
});

describe('MMR request options', () => {
  const mmr = (extra: Record<string, unknown> = {}) => ({ query: { nearest: q, mmr: { diversity: 0.8, candidates_limit: 40 } }, using: 'c', ...extra });

  it('pages with offset over the MMR order', async () => {
    const first = await query(mmr({ limit: 4 }));
    const paged = await query(mmr({ limit: 2, offset: 2 }));
    expect(paged.map((p) => p.id)).toEqual(first.slice(2, 4).map((p) => p.id));
  });

  it('re-ranks only candidates_limit points; by default as many as the page', async () => {
    expect(await query({ query: { nearest: q, mmr: { diversity: 0.8, candidates_limit: 2 } }, using: 'c', limit: 5 })).toHaveLength(2);
    // Without candidates_limit the candidates are the page itself: the plain top 3, re-ordered.
    const plain = await query({ query: q, using: 'c', limit: 3 });
    const own = await query({ query: { nearest: q, mmr: { diversity: 0.8 } }, using: 'c', limit: 3 });
    expect(new Set(own.map((p) => p.id))).toEqual(new Set(plain.map((p) => p.id)));
  });

  it('returns payloads and vectors only as asked', async () => {
    const bare = await query(mmr({ limit: 2 }));
    expect(bare[0]!.payload ?? null).toBeNull();
    expect(bare[0]!.vector ?? null).toBeNull();
    const full = await query(mmr({ limit: 2, with_payload: true, with_vector: ['e'] }));
    expect(full[0]!.payload).toEqual({ cluster: clusterOf.get(Number(full[0]!.id)) });
    expect(Object.keys(full[0]!.vector as object)).toEqual(['e']);
  });

  it('applies the filter and prefetch candidates', async () => {
    const filtered = await query(mmr({ limit: 3, filter: { must_not: [{ key: 'cluster', match: { value: 'A' } }] } }));
    expect(filtered.every((p) => clusterOf.get(Number(p.id)) !== 'A')).toBe(true);
    const onlyB = await query({
      prefetch: { query: CENTERS.B!, using: 'c', limit: 5 },
      query: { nearest: q, mmr: { diversity: 0.8 } },
      using: 'c',
      limit: 3,
    });
    expect(onlyB).toHaveLength(3);
    expect(onlyB.every((p) => clusterOf.get(Number(p.id)) === 'B')).toBe(true);
  });

  it('refuses a re-rank too large for one query, and caps the default candidates at 16,384', async () => {
    await client.createCollection('wide', { vectors: { size: 64, distance: 'Dot' } });
    const big = await call(server.url, 'POST', '/collections/wide/points/query', { query: { nearest: Array(64).fill(1), mmr: {} }, limit: 100_000 });
    expect(big.status).toBe(400);
    expect(big.body.status.error).toBe(
      'mmr: 16384 picks among 16384 candidates of 64 dimensions is more work than one query may ask for; lower limit or candidates_limit',
    );
    const fine = await call(server.url, 'POST', '/collections/wide/points/query', { query: { nearest: Array(64).fill(1), mmr: { candidates_limit: 100 } }, limit: 100_000 });
    expect(fine.status).toBe(200);
  });

  it.each([
    [{ diversity: 2 }, 'mmr.diversity must be a number from 0 to 1, got 2'],
    [{ candidates_limit: 20_000 }, 'mmr.candidates_limit must be an integer from 0 to 16384, got 20000'],
    [{ lambda: 0.3 }, "mmr: unknown field 'lambda'"],
  ])('refuses mmr %j with 400', async (bad, message) => {
    const r = await call(server.url, 'POST', '/collections/m/points/query', { query: { nearest: q, mmr: bad }, using: 'c' });
    expect(r.status).toBe(400);
    expect(r.body.status.error).toBe(message);
  });
});

describe('MMR over gRPC', () => {
  it('nearest_with_mmr gives the REST result', async () => {
    const rest = await query({ query: { nearest: q, mmr: { diversity: 0.8, candidates_limit: 40 } }, using: 'e', limit: 4 });
    const g = await grpcClient(server).api('points').query({
      collectionName: 'm',
      query: { variant: { case: 'nearestWithMmr', value: { nearest: { variant: { case: 'dense', value: { data: q } } }, mmr: { diversity: 0.8, candidatesLimit: 40 } } } },
      using: 'e',
      limit: 4n,
    });
    expect(g.result.map((p) => idOf(p))).toEqual(rest.map((p) => p.id));
    g.result.forEach((p, i) => expect(p.score).toBeCloseTo(rest[i]!.score, 5));
  });
});
