// Live recall through the real server: with SERVICE_LIVE_RECALL_FRACTION=1 every approximate
// search is also answered exactly in the background, and /metrics' quiver_live_recall must equal
// the recall this test computes from the answers it got and its own brute-force ground truth,
// unfiltered and filtered apart, over REST and gRPC; exact and sparse searches are not sampled; a
// burst of searches gets only the checks that fit in the budget, the rest counted as skipped, and
// a dropped collection's figures go from /metrics. Checks are spaced by a share of wall time, so
// on a slow or loaded machine each takes seconds: the waits below are for counts, not durations.

import { QdrantClient } from '@qdrant/js-client-grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

const DIM = 16;
const N = 3000;
const K = 10;

let server: TestServer;
const vectors = randomVectors(N, DIM, 11).map((v) => Array.from(Float32Array.from(v)));

/** This test's exact top K (Euclid) among the points whose group is `group` (all when null). */
function truth(q: number[], group: number | null): number[] {
  const dist = (v: number[]): number => v.reduce((s, x, j) => s + (x - q[j]!) ** 2, 0);
  return vectors
    .map((v, id) => ({ id, d: dist(v) }))
    .filter(({ id }) => group === null || id % 2 === group)
    .sort((a, b) => a.d - b.d || a.id - b.id)
    .slice(0, K)
    .map(({ id }) => id);
}

async function metric(name: string, filtered: boolean): Promise<number | undefined> {
  const text = (await call(server.url, 'GET', '/metrics')).body as string;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes('collection="lr"') && l.includes(`filtered="${filtered}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The unfiltered searches checked and skipped so far (a figure not yet reported is 0). */
async function unfilteredCounts(): Promise<{ checked: number; skipped: number }> {
  return { checked: (await metric('quiver_live_recall_samples_total', false)) ?? 0, skipped: (await metric('quiver_live_recall_skipped_total', false)) ?? 0 };
}

async function samplesReach(filtered: boolean, n: number): Promise<void> {
  await expect.poll(() => metric('quiver_live_recall_samples_total', filtered), { timeout: 60_000, interval: 100 }).toBe(n);
}

describe('live recall', () => {
  beforeAll(async () => {
    server = await startServer({ shards: 2, env: { SERVICE_LIVE_RECALL_FRACTION: '1' } });
    // A sparse graph searched with a small ef, so that the approximate answers miss some neighbours.
    expect((await call(server.url, 'PUT', '/collections/lr', { vectors: { size: DIM, distance: 'Euclid' }, sparse_vectors: { s: {} }, shard_number: 2, hnsw_config: { m: 4, ef_construct: 8 } })).status).toBe(200);
    for (let i = 0; i < N; i += 500) {
      const points = vectors.slice(i, i + 500).map((vector, k) => ({ id: i + k, vector: { '': vector, s: { indices: [k % 7], values: [1] } }, payload: { g: (i + k) % 2 } }));
      expect((await call(server.url, 'PUT', '/collections/lr/points?wait=true', { points })).status).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
  });

  it('reports, per collection and kind, the recall@k of the answers sent, against exact answers', async () => {
    expect(await metric('quiver_live_recall', false)).toBeUndefined();
    const queries = randomVectors(24, DIM, 12);
    const grpc = new QdrantClient({ url: server.grpcUrl, checkCompatibility: false });
    let unfiltered = 0;
    let filtered = 0;
    for (const [i, q] of queries.entries()) {
      const group = i % 2 === 0 ? null : 0;
      const filter = group === null ? undefined : { must: [{ key: 'g', match: { value: group } }] };
      let ids: number[];
      // Every other unfiltered search over gRPC: the same coordination, another edge.
      if (i % 4 === 2) {
        const res = await grpc.api('points').search({ collectionName: 'lr', vector: q, limit: BigInt(K), params: { hnswEf: BigInt(K) } });
        ids = res.result.map((p) => Number(p.id?.pointIdOptions.value));
      } else {
        const res = await call(server.url, 'POST', '/collections/lr/points/search', { vector: q, limit: K, params: { hnsw_ef: K }, ...(filter ? { filter } : {}) });
        expect(res.status).toBe(200);
        ids = (res.body.result as { id: number }[]).map((p) => p.id);
      }
      const want = new Set(truth(q.map((x) => Math.fround(x)), group));
      const recall = ids.filter((id) => want.has(id)).length / want.size;
      if (group === null) unfiltered += recall;
      else filtered += recall;
      // One check at a time: the server spaces checks out (its time budget) and drops samples
      // beyond the few it lets wait, so the next search waits for this one's check.
      await samplesReach(group !== null, Math.floor(i / 2) + 1);
    }
    // The check must be able to fail: with this graph and ef some neighbours are missed.
    const each = queries.length / 2;
    expect(unfiltered / each).toBeLessThan(1);
    expect(await metric('quiver_live_recall', false)).toBeCloseTo(unfiltered / each, 9);
    expect(await metric('quiver_live_recall', true)).toBeCloseTo(filtered / each, 9);
    // One at a time, every sample found room.
    expect(await metric('quiver_live_recall_skipped_total', false)).toBe(0);
    expect(await metric('quiver_live_recall_skipped_total', true)).toBe(0);
  }, 240_000);

  it('a burst is checked only as far as the budget allows: the rest of its samples are skipped and counted', { timeout: 240_000 }, async () => {
    const before = await unfilteredCounts();
    const queries = randomVectors(60, DIM, 13);
    await Promise.all(queries.map(async (q) => expect((await call(server.url, 'POST', '/collections/lr/points/search', { vector: q, limit: K })).status).toBe(200)));
    // Every one of them was picked (fraction 1): each is checked, once the budget lets the checks
    // waiting before it run, or skipped. Read once all 60 are accounted for (the next test counts
    // from here).
    let after = before;
    await expect
      .poll(
        async () => {
          after = await unfilteredCounts();
          return after.checked + after.skipped - before.checked - before.skipped;
        },
        { timeout: 200_000, interval: 250 },
      )
      .toBe(queries.length);
    expect(after.checked - before.checked).toBeGreaterThan(0);
    expect(after.checked - before.checked).toBeLessThan(queries.length / 2);
    expect(after.skipped - before.skipped).toBeGreaterThan(queries.length / 2);
  });

  it('does not sample exact or sparse searches', async () => {
    const before = await metric('quiver_live_recall_samples_total', false);
    for (let i = 0; i < 5; i++) {
      expect((await call(server.url, 'POST', '/collections/lr/points/search', { vector: vectors[i], limit: K, params: { exact: true } })).status).toBe(200);
      expect((await call(server.url, 'POST', '/collections/lr/points/query', { query: { indices: [1], values: [1] }, using: 's', limit: K })).status).toBe(200);
    }
    // One approximate search after them: once its check is counted, theirs would have been too.
    expect((await call(server.url, 'POST', '/collections/lr/points/search', { vector: vectors[0], limit: K })).status).toBe(200);
    await samplesReach(false, before! + 1);
  }, 90_000);

  it("a dropped collection's figures leave /metrics", async () => {
    expect(await metric('quiver_live_recall', false)).toBeDefined();
    expect((await call(server.url, 'DELETE', '/collections/lr')).status).toBe(200);
    expect(await metric('quiver_live_recall', false)).toBeUndefined();
    expect(await metric('quiver_live_recall_samples_total', false)).toBeUndefined();
    expect(await metric('quiver_live_recall_skipped_total', false)).toBeUndefined();
  });
});
