// Differential tests: the same random filters answered with and without payload indexes must
// agree exactly, and filtered HNSW search must keep recall against exact filtered search.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../helpers/random.js';
import { randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

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

const COLORS = ['red', 'green', 'blue', 'black', 'white'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega'];

function randomPayload(r: () => number): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (r() < 0.9) p.color = r() < 0.2 ? [COLORS[Math.floor(r() * 5)], COLORS[Math.floor(r() * 5)]] : COLORS[Math.floor(r() * 5)];
  if (r() < 0.9) p.n = Math.floor(r() * 100);
  if (r() < 0.1) p.n = null;
  if (r() < 0.8) p.x = Math.round(r() * 1000) / 10;
  if (r() < 0.8) p.ok = r() < 0.5;
  if (r() < 0.8) p.loc = { lon: r() * 40 - 20, lat: r() * 40 - 20 };
  if (r() < 0.8) p.at = new Date(Date.UTC(2024, 0, 1) + Math.floor(r() * 30) * 86_400_000).toISOString();
  if (r() < 0.8) p.words = Array.from({ length: 1 + Math.floor(r() * 3) }, () => WORDS[Math.floor(r() * 5)]).join(' ');
  return p;
}

function randomCondition(r: () => number): Record<string, unknown> {
  switch (Math.floor(r() * 10)) {
    case 0:
      return { key: 'color', match: { value: COLORS[Math.floor(r() * 5)] } };
    case 1:
      return { key: 'color', match: { any: [COLORS[Math.floor(r() * 5)], COLORS[Math.floor(r() * 5)]] } };
    case 2:
      return { key: 'n', range: { gte: Math.floor(r() * 50), lt: 50 + Math.floor(r() * 50) } };
    case 3:
      return { key: 'n', match: { value: Math.floor(r() * 100) } };
    case 4:
      return { key: 'x', range: { gt: r() * 50, lte: 50 + r() * 50 } };
    case 5:
      return { key: 'ok', match: { value: r() < 0.5 } };
    case 6: {
      const lon = r() * 30 - 20;
      const lat = r() * 30 - 20;
      return { key: 'loc', geo_bounding_box: { top_left: { lon, lat: lat + 10 }, bottom_right: { lon: lon + 10, lat } } };
    }
    case 7:
      return { key: 'loc', geo_radius: { center: { lon: r() * 40 - 20, lat: r() * 40 - 20 }, radius: 200_000 + r() * 800_000 } };
    case 8:
      return { key: 'at', range: { gte: `2024-01-${String(1 + Math.floor(r() * 15)).padStart(2, '0')}T00:00:00Z` } };
    default:
      return { key: 'words', match: { text: WORDS[Math.floor(r() * 5)] } };
  }
}

function randomFilter(r: () => number): Record<string, unknown> {
  const f: Record<string, unknown> = { must: [randomCondition(r)] };
  if (r() < 0.5) (f.must as unknown[]).push(randomCondition(r));
  if (r() < 0.3) f.should = [randomCondition(r), randomCondition(r)];
  if (r() < 0.3) f.must_not = [randomCondition(r)];
  return f;
}

describe('indexed and unindexed filtering agree', () => {
  const N = 2000;
  const r = rng(2024);
  const vectors = randomVectors(N, 8, 11);
  const payloads = Array.from({ length: N }, () => randomPayload(r));

  beforeAll(async () => {
    for (const name of ['plain', 'indexed']) {
      // full_scan_threshold is in KB of vectors: 2 KB of 8-d float vectors is 64 points.
      await client.createCollection(name, { vectors: { size: 8, distance: 'Cosine' }, hnsw_config: { full_scan_threshold: 2 } });
      for (let i = 0; i < N; i += 500) {
        await client.upsert(name, { wait: true, points: vectors.slice(i, i + 500).map((v, j) => ({ id: i + j, vector: v, payload: payloads[i + j]! })) });
      }
    }
    const schemas: Record<string, unknown> = { color: 'keyword', n: 'integer', x: 'float', ok: 'bool', loc: 'geo', at: 'datetime' };
    for (const [field_name, field_schema] of Object.entries(schemas)) {
      await client.createPayloadIndex('indexed', { field_name, field_schema: field_schema as 'keyword', wait: true });
    }
  });

  it('count, scroll and exact search give identical answers for 80 random filters', async () => {
    const fr = rng(77);
    const q = randomVectors(1, 8, 5)[0]!;
    let nonEmpty = 0;
    for (let t = 0; t < 80; t++) {
      const filter = randomFilter(fr);
      const [a, b] = await Promise.all(
        ['plain', 'indexed'].map(async (name) => ({
          count: (await client.count(name, { filter })).count,
          ids: (await client.scroll(name, { filter, limit: N, with_payload: false })).points.map((p) => p.id),
          top: (await client.query(name, { query: q, filter, limit: 10, params: { exact: true } })).points.map((p) => p.id),
        })),
      );
      expect(b, JSON.stringify(filter)).toEqual(a);
      expect(a!.ids.length).toBe(a!.count);
      if (a!.count > 0) nonEmpty++;
    }
    // The generator must produce filters that select something, or the comparison says little.
    expect(nonEmpty).toBeGreaterThan(40);
  });
});

describe('filtered HNSW recall', () => {
  const N = 12_000;
  const DIM = 24;
  const vectors = randomVectors(N, DIM, 21);

  beforeAll(async () => {
    // A low full_scan_threshold sends the broad filters through HNSW; the narrow ones are scored
    // exactly. It is in KB of vectors: 19 KB of 24-d float vectors is 202 points.
    await client.createCollection('recall_f', { vectors: { size: DIM, distance: 'Cosine' }, hnsw_config: { full_scan_threshold: 19 } });
    for (let i = 0; i < N; i += 2000) {
      await client.upsert('recall_f', {
        wait: true,
        points: vectors.slice(i, i + 2000).map((v, j) => {
          const id = i + j;
          return { id, vector: v, payload: { p50: id % 2 === 0, p10: id % 10 === 0, p1: id % 100 === 0, p01: id % 1000 === 0 } };
        }),
      });
    }
  });

  it.each([
    ['p50', 0.5],
    ['p10', 0.1],
    ['p1', 0.01],
    ['p01', 0.001],
  ])('recall@10 >= 0.95 at selectivity %s', async (key) => {
    for (const indexed of [false, true]) {
      if (indexed) await client.createPayloadIndex('recall_f', { field_name: key, field_schema: 'bool', wait: true });
      const filter = { must: [{ key, match: { value: true } }] };
      let hits = 0;
      let total = 0;
      for (const q of randomVectors(20, DIM, 99)) {
        const exact = (await client.query('recall_f', { query: q, filter, limit: 10, params: { exact: true } })).points.map((p) => p.id);
        const got = new Set((await client.query('recall_f', { query: q, filter, limit: 10 })).points.map((p) => p.id));
        hits += exact.filter((id) => got.has(id)).length;
        total += exact.length;
      }
      expect(total).toBeGreaterThan(0);
      expect(hits / total, `${key} indexed=${indexed}`).toBeGreaterThanOrEqual(0.95);
    }
  });
});
