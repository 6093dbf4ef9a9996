// The same Qdrant operations, through the official REST client, against a single-node Quiver and
// a 3-node cluster (and a few through the official gRPC client) (3 shards, replication_factor 2, write_consistency_factor 2, so wait=true means
// every replica applied the write and any node can read it back), each step sent to the next node
// in turn: every answer must be the same on both. Searches are exact, so no graph decides a result.
// What it covers beyond the data-plane test: filtered search, scroll pages across shards, count,
// payload set/overwrite/delete/clear by ids and by filter, vector updates, deletes by filter,
// the older search endpoints, query with prefetch and fusion, query by id, facets, batch search,
// order_by, queries by example, formula and the distance matrix.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient } from '../../helpers/grpc.js';
import { removeDir, startServer, type TestServer } from '../../helpers/server.js';
import { readableThroughEvery, startThreeNodes, type ThreeNodes } from '../../helpers/three-nodes.js';

const C = 'parity';
const DIM = 8;
const N = 240;
const COLORS = ['red', 'green', 'blue', 'amber'];

let single: TestServer;
let cluster: ThreeNodes;
let one: QdrantClient;
let many: QdrantClient[];
let turn = 0;
/** The next cluster node's client: consecutive steps go through different nodes. */
const next = (): QdrantClient => many[turn++ % many.length]!;

function vectorOf(id: number, salt = 0): number[] {
  return Array.from({ length: DIM }, (_, d) => Math.round(1000 * Math.sin(id * 0.37 + d * 1.3 + salt)) / 1000);
}

/** Scores rounded (float sums may differ in the last bits across shard layouts), keys sorted. */
function norm(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : Math.round(v * 1e4) / 1e4;
  if (Array.isArray(v)) return v.map(norm);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if (!['version', 'shard_key', 'order_value', 'operation_id'].includes(k)) out[k] = norm((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

const urlOf = new Map<QdrantClient, string>();
/** A raw POST (the older endpoints the current client no longer wraps): the answer's result. */
async function post(c: QdrantClient, path: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${urlOf.get(c)!}/collections/${C}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await r.json()) as { result?: unknown; status?: unknown };
  expect(r.status, `${path}: ${JSON.stringify(json.status)}`).toBe(200);
  return json.result;
}

/** Runs one step on the single node and on a cluster node; both answers, normalised, must agree. */
async function same<T>(what: string, step: (c: QdrantClient) => Promise<T>): Promise<T> {
  const a = await step(one);
  const b = await step(next());
  expect(norm(b), what).toEqual(norm(a));
  return a;
}

describe('a 3-node cluster answers as a single node does', () => {
  beforeAll(async () => {
    [single, cluster] = await Promise.all([startServer({ shards: 2 }), startThreeNodes()]);
    one = new QdrantClient({ url: single.url, checkCompatibility: false });
    many = cluster.nodes.map((n) => new QdrantClient({ url: n.url, checkCompatibility: false }));
    urlOf.set(one, single.url);
    many.forEach((c, i) => urlOf.set(c, cluster.nodes[i]!.url));
    const params = { vectors: { size: DIM, distance: 'Euclid' as const }, shard_number: 3, replication_factor: 2, write_consistency_factor: 2 };
    await one.createCollection(C, params);
    await many[0]!.createCollection(C, params);
    await readableThroughEvery(cluster.nodes.map((n) => n.url), C);
    for (const c of [one, many[1]!]) {
      await c.createPayloadIndex(C, { field_name: 'color', field_schema: 'keyword', wait: true });
      await c.createPayloadIndex(C, { field_name: 'n', field_schema: 'integer', wait: true });
    }
    for (let lo = 0; lo < N; lo += 60) {
      const points = Array.from({ length: 60 }, (_, k) => {
        const id = lo + k + 1;
        return { id, vector: vectorOf(id), payload: { color: COLORS[id % 4]!, n: id, tags: [`t${id % 3}`, `t${id % 5}`], nested: { even: id % 2 === 0 } } };
      });
      await same(`upsert ${lo}`, (c) => c.upsert(C, { wait: true, points }));
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all([single?.stop('SIGKILL'), cluster?.close()]);
    if (single !== undefined) removeDir(single.dataDir);
  });

  it('reads: filtered exact search, count, every scroll page, retrieve, batch search, facet, order_by', { timeout: 120_000 }, async () => {
    const red = { must: [{ key: 'color', match: { value: 'red' } }] };
    await same('count all', (c) => c.count(C, { exact: true }));
    await same('count filtered', (c) => c.count(C, { exact: true, filter: { must: [{ key: 'n', range: { gte: 50, lt: 170 } }], must_not: [{ key: 'color', match: { value: 'blue' } }] } }));
    await same('search filtered', (c) => c.query(C, { query: vectorOf(7, 0.1), limit: 12, filter: red, with_payload: true, params: { exact: true } }));
    await same('search offset', (c) => c.query(C, { query: vectorOf(9, 0.2), limit: 7, offset: 11, with_payload: ['n'], with_vector: true, params: { exact: true } }));
    await same('search threshold', (c) => c.query(C, { query: vectorOf(3), limit: 50, score_threshold: 1.5, params: { exact: true } }));
    await same('search nested/any', (c) =>
      c.query(C, { query: vectorOf(40), limit: 9, filter: { must: [{ key: 'nested.even', match: { value: true } }, { key: 'tags', match: { any: ['t1', 't4'] } }] }, params: { exact: true } }),
    );
    // Every page, following next_page_offset, as a client paging through would.
    await same('scroll pages', async (c) => {
      const pages: unknown[] = [];
      let offset: string | number | undefined | null = undefined;
      do {
        const r = await c.scroll(C, { limit: 17, with_payload: true, filter: { must_not: [{ key: 'color', match: { value: 'green' } }] }, ...(offset === undefined ? {} : { offset }) });
        pages.push(r.points);
        offset = r.next_page_offset as string | number | null | undefined;
      } while (offset !== null && offset !== undefined);
      return pages;
    });
    await same('retrieve', (c) => c.retrieve(C, { ids: [1, 5, 99, 240, 241], with_payload: true, with_vector: true }));
    await same('query batch', (c) =>
      c.queryBatch(C, { searches: [{ query: vectorOf(11), limit: 3, params: { exact: true } }, { query: vectorOf(12), limit: 4, filter: red, params: { exact: true } }] }),
    );
    await same('legacy search', (c) => post(c, '/points/search', { vector: vectorOf(5, 0.3), limit: 6, filter: red, with_payload: true, params: { exact: true } }));
    await same('facet', (c) => c.facet(C, { key: 'color', exact: true }));
    await same('order_by', (c) => c.scroll(C, { limit: 15, order_by: { key: 'n', direction: 'desc' }, filter: red }));
  });

  it('query API: prefetch with rrf fusion, query by id', { timeout: 120_000 }, async () => {
    await same('query by id', (c) => c.query(C, { query: 17, limit: 5, params: { exact: true } }));
    await same('query fusion', (c) =>
      c.query(C, {
        prefetch: [
          { query: vectorOf(30), limit: 20, params: { exact: true } },
          { query: vectorOf(31), limit: 20, filter: { must: [{ key: 'color', match: { value: 'amber' } }] }, params: { exact: true } },
        ],
        query: { fusion: 'rrf' },
        limit: 10,
      }),
    );
  });

  it('query API by example, formula and the distance matrix: the same answers across nodes', { timeout: 120_000 }, async () => {
    // Exact searches (the graph decides nothing), examples by id read from other nodes' shards.
    const exact = { exact: true };
    await same('recommend average', (c) => c.query(C, { query: { recommend: { positive: [3, 50], negative: [120] } }, limit: 8, params: exact }));
    await same('recommend best_score', (c) => c.query(C, { query: { recommend: { positive: [3, 50], negative: [120], strategy: 'best_score' } }, limit: 8, params: exact }));
    await same('discover', (c) => c.query(C, { query: { discover: { target: 10, context: [{ positive: 11, negative: 200 }] } }, limit: 8, params: exact }));
    await same('context', (c) => c.query(C, { query: { context: [{ positive: 11, negative: 200 }] }, limit: 8, params: exact }));
    await same('formula', (c) =>
      c.query(C, {
        prefetch: { query: vectorOf(60), limit: 40, params: exact },
        query: { formula: { sum: [{ neg: '$score' }, { mult: [0.01, 'n'] }, { key: 'color', match: { value: 'red' } }] } } as never,
        limit: 10,
      }),
    );
    // A sample larger than the collection takes every point: the matrix is then deterministic.
    await same('matrix pairs', (c) => c.searchMatrixPairs(C, { sample: N + 10, limit: 2 }));
  });

  it('gRPC: search, scroll and count answer alike (protobuf replies, bigint ids)', { timeout: 60_000 }, async () => {
    const g1 = grpcClient(single).api('points');
    const gs = cluster.nodes.map((n) => grpcClient(n).api('points'));
    const filter = { must: [{ conditionOneOf: { case: 'field' as const, value: { key: 'color', match: { matchValue: { case: 'keyword' as const, value: 'amber' } } } } }] };
    const steps: [string, (g: typeof g1) => Promise<unknown>][] = [
      ['search', async (g) => (await g.search({ collectionName: C, vector: vectorOf(44), limit: 9n, filter, params: { exact: true } })).result.map((p) => [Number(p.id?.pointIdOptions.value), Math.round(p.score * 1e4)])],
      ['scroll', async (g) => (await g.scroll({ collectionName: C, limit: 30, filter })).result.map((p) => Number(p.id?.pointIdOptions.value))],
      ['count', async (g) => Number((await g.count({ collectionName: C, exact: true, filter })).result?.count)],
    ];
    for (const [what, step] of steps) {
      const want = await step(g1);
      expect(want === 0 || (Array.isArray(want) && want.length === 0), `${what} answered nothing`).toBe(false);
      for (const g of gs) expect(await step(g), what).toEqual(want);
    }
  });

  it('writes: payload by ids and by filter, vector updates, deletes by filter and ids; then the same reads', { timeout: 180_000 }, async () => {
    const blue = { must: [{ key: 'color', match: { value: 'blue' } }] };
    await same('set payload by filter', (c) => c.setPayload(C, { payload: { flag: 'b' }, filter: blue, wait: true }));
    await same('set payload nested key', (c) => c.setPayload(C, { payload: { deep: 1 }, points: [2, 4, 6], key: 'nested', wait: true }));
    await same('overwrite payload', (c) => c.overwritePayload(C, { payload: { color: 'red', n: 1000 }, points: [10, 11], wait: true }));
    await same('delete payload by filter', (c) => c.deletePayload(C, { keys: ['tags'], filter: { must: [{ key: 'n', range: { lt: 30 } }] }, wait: true }));
    await same('clear payload', (c) => c.clearPayload(C, { points: [12, 13], wait: true }));
    await same('update vectors', (c) => c.updateVectors(C, { points: [20, 21, 22].map((id) => ({ id, vector: vectorOf(id, 5) })), wait: true }));
    await same('delete by filter', (c) => c.delete(C, { filter: { must: [{ key: 'color', match: { value: 'green' } }, { key: 'n', range: { gt: 100 } }] }, wait: true }));
    await same('delete by ids', (c) => c.delete(C, { points: [1, 2, 3, 999], wait: true }));
    await same('count after', (c) => c.count(C, { exact: true }));
    await same('facet after', (c) => c.facet(C, { key: 'color', exact: true }));
    await same('all points after', (c) => c.scroll(C, { limit: 500, with_payload: true, with_vector: true }));
    await same('search after', (c) => c.query(C, { query: vectorOf(21, 5), limit: 8, with_payload: true, params: { exact: true } }));
    await same('collection points_count', async (c) => (await c.getCollection(C)).points_count);
  });

  it('vector names on the live collection and multivectors: created, written, queried and deleted alike', { timeout: 120_000 }, async () => {
    const rows = (id: number): number[][] => [vectorOf(id, 1), vectorOf(id, 2), vectorOf(id, 3)].map((v) => v.slice(0, 4));
    await same('create vector name', (c) => c.createVectorName(C, 'mv', { dense: { size: 4, distance: 'Cosine', multivector_config: { comparator: 'max_sim' } } }, { wait: true }));
    await same('config after create', async (c) => (await c.getCollection(C)).config.params);
    await same('multivectors written', (c) => c.updateVectors(C, { points: [30, 31, 32, 33, 34, 35].map((id) => ({ id, vector: { mv: rows(id) } })), wait: true }));
    await same('multivector query', (c) => c.query(C, { query: rows(40), using: 'mv', limit: 4, with_vector: ['mv'] }));
    await same('multivector recommend', (c) => c.query(C, { query: { recommend: { positive: [30], negative: [31], strategy: 'best_score' } }, using: 'mv', limit: 3 }));
    await same('delete vector name', (c) => c.deleteVectorName(C, 'mv', { wait: true }));
    await same('points after delete', (c) => c.scroll(C, { limit: 500, with_vector: true }));
    await same('config after delete', async (c) => (await c.getCollection(C)).config.params);
  });

  it('cluster telemetry: every shard with its two replicas, and the three peers', { timeout: 60_000 }, async () => {
    const r = await fetch(`${cluster.nodes[0]!.url}/cluster/telemetry`);
    const body = (await r.json()) as { result: { collections: Record<string, { shards: { id: number; replicas: { peer_id: number; state: string }[] }[] }>; cluster: { enabled: boolean; number_of_peers: number } } };
    const shards = body.result.collections[C]!.shards;
    expect(shards.map((s) => s.id)).toEqual([0, 1, 2]);
    for (const s of shards) {
      expect(s.replicas).toHaveLength(2);
      expect(new Set(s.replicas.map((x) => x.peer_id)).size).toBe(2);
      for (const x of s.replicas) expect(x.state).toBe('Active');
    }
    expect(body.result.cluster).toMatchObject({ enabled: true, number_of_peers: 3 });

    // The node's own telemetry at level 3: each shard's replica set as this node sees it, its own
    // copy `local` (when it holds one) and the others `remote`, every replica's state by peer.
    const t = (await (await fetch(`${cluster.nodes[0]!.url}/telemetry?details_level=3`)).json()) as {
      result: { collections: { collections: { id: string; shards: { id: number; local: { num_points: number } | null; remote: { peer_id: number }[]; replicate_states: Record<string, string> }[] }[] } };
    };
    const mine = t.result.collections.collections.find((c) => c.id === C)!;
    expect(mine.shards.map((s) => s.id)).toEqual([0, 1, 2]);
    for (const s of mine.shards) {
      expect(Object.values(s.replicate_states)).toEqual(['Active', 'Active']);
      expect(s.remote.length + (s.local === null ? 0 : 1)).toBe(2);
    }
    expect(mine.shards.some((s) => s.local !== null)).toBe(true);
  });
});

