// Read copies across workers (replication_factor): every copy receives every write in the same
// order, reads go to one copy per shard (which worker served is read from the per-worker request
// counters in /metrics, never from timings), a copy being built serves no reads, PATCH adds and
// drops copies, and copies survive a restart and a DELETE. Two workers throughout.
//
// Which copy serves a read: reads are coordinated by the workers, in turn when one read is sent
// at a time, and a coordinator reads its own copy. These tests send one read at a time, so
// consecutive reads of a one-shard collection alternate between its two copies; a test that
// compares N consecutive answers and sees both workers' counters move has compared copies.
// (Counts are not used for that: a /metrics scrape counts points itself.)

import { ReplicaState } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcClient } from '../helpers/grpc.js';
import { sample, scrape } from '../helpers/metrics.js';
import { call, randomVectors, removeDir, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const DIM = 8;
const N = 300;
const LOAD_DELAY_MS = 2500;
const data = randomVectors(N + 100, DIM, 11);
const dataDir = tempDataDir();
let server: TestServer;
let client: QdrantClient;

beforeAll(async () => {
  server = await startServer({ dataDir, shards: 2, env: { QUIVER_FAILPOINTS: `secondary_load_delay_ms=${LOAD_DELAY_MS}` } });
  client = new QdrantClient({ url: server.url });
});
afterAll(async () => {
  await server.stop('SIGKILL');
  removeDir(dataDir);
});

/** Requests of `op` each worker has been sent so far. */
async function served(op: string): Promise<[number, number]> {
  const text = await scrape(server.url);
  return [0, 1].map((w) => sample(text, 'quiver_worker_requests_total', { worker: String(w), op }) ?? 0) as [number, number];
}

/**
 * Reads one after another until both copies have served one (at most `max`): which copy takes
 * each read follows each worker's room (the freest taking turns), so two reads in a row may both
 * go to one copy.
 */
// Up to 64 reads: on a loaded machine (CI's 2 cores) a copy just turned Active can stay the busier
// one for a while, and the freest-first choice then sends a run of reads to the other.
async function readBoth<T>(op: string, read: () => Promise<T>, max = 64): Promise<{ answers: T[]; perWorker: [number, number] }> {
  const before = await served(op);
  const answers: T[] = [];
  for (let i = 0; i < max; i++) {
    answers.push(await read());
    const now = await served(op);
    if (now[0] > before[0] && now[1] > before[1]) break;
  }
  const after = await served(op);
  return { answers, perWorker: [after[0] - before[0], after[1] - before[1]] };
}

/**
 * Both copies served reads, `total` in all: which copy takes each read is the coordinator
 * choice's (by room, the freest taking turns: src/main/router/coordinator-choice.ts), so the
 * split is not exactly even.
 */
function expectBoth(perWorker: [number, number], total: number): void {
  expect(perWorker[0] + perWorker[1]).toBe(total);
  expect(Math.min(...perWorker)).toBeGreaterThan(0);
}

/** `times` reads one after another, and the requests of `op` each worker served meanwhile. */
async function readEach<T>(op: string, times: number, read: () => Promise<T>): Promise<{ answers: T[]; perWorker: [number, number] }> {
  const before = await served(op);
  const answers: T[] = [];
  for (let i = 0; i < times; i++) answers.push(await read());
  const after = await served(op);
  return { answers, perWorker: [after[0] - before[0], after[1] - before[1]] };
}

interface Cluster {
  shard_count: number;
  replicas_per_shard: number;
  local_shards: { shard_id: number; worker: number; copy: number; state: string; points_count: number }[];
}

async function cluster(name: string): Promise<Cluster> {
  const r = await call(server.url, 'GET', `/collections/${name}/cluster`);
  expect(r.status).toBe(200);
  return r.body.result as Cluster;
}

/** The worker of shard 0's primary. */
async function primaryWorker(name: string): Promise<number> {
  const c = await cluster(name);
  return c.local_shards.find((s) => s.shard_id === 0 && s.copy === 0)!.worker;
}

/** The `limit` nearest points (exact search), through the Query API as today's clients call it. */
async function nearest(name: string, vector: number[], limit: number): Promise<{ id: string | number; score: number }[]> {
  return (await client.query(name, { query: vector, limit, params: { exact: true } })).points;
}

const point = (i: number, payload: Record<string, unknown> = { i }) => ({ id: i, vector: data[i]!, payload });

describe('replication_factor 2 on 2 workers', () => {
  it('puts a copy of each shard on each worker; both receive the writes and serve reads alike', async () => {
    await client.createCollection('r', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 1, replication_factor: 2 });
    const c = await cluster('r');
    expect(c.replicas_per_shard).toBe(2);
    expect(c.local_shards.map((s) => [s.copy, s.state]).sort()).toEqual([[0, 'Active'], [1, 'Active']]);
    expect(new Set(c.local_shards.map((s) => s.worker))).toEqual(new Set([0, 1]));
    const info = await client.getCollection('r');
    expect(info.config.params.replication_factor).toBe(2);

    for (let i = 0; i < N; i += 100) await client.upsert('r', { wait: true, points: Array.from({ length: 100 }, (_, j) => point(i + j)) });
    await client.delete('r', { wait: true, points: [0, 1, 2] });
    await client.setPayload('r', { wait: true, points: [5], payload: { set: true } });

    for (let i = 0; i < 4; i++) expect((await client.count('r', { exact: true })).count).toBe(N - 3);

    const ids = [0, 3, 5, 150, 299];
    const got = await readBoth('retrieve', () => client.retrieve('r', { ids, with_payload: true, with_vector: true }));
    expectBoth(got.perWorker, got.answers.length);
    for (const a of got.answers) expect(a).toEqual(got.answers[0]);
    expect(got.answers[0]!.map((p) => p.id)).toEqual([3, 5, 150, 299]);
    expect(got.answers[0]!.find((p) => p.id === 5)!.payload).toEqual({ i: 5, set: true });

    const q = data[42]!;
    const found = await readBoth('search', () => nearest('r', q, 5));
    expectBoth(found.perWorker, found.answers.length);
    for (const a of found.answers) expect(a).toEqual(found.answers[0]);
    expect(found.answers[0]![0]!.id).toBe(42);

    // Cluster info asks every copy: both hold every point.
    expect((await cluster('r')).local_shards.map((s) => s.points_count)).toEqual([N - 3, N - 3]);
  });

  it('concurrent upserts of the same ids leave the same state on every copy', async () => {
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 40; round++) {
      const pts = Array.from({ length: 10 }, (_, i) => ({ id: 1000 + i, vector: data[(round * 7 + i) % N]!, payload: { round } }));
      writes.push(client.upsert('r', { wait: round % 2 === 0, points: pts }));
      if (round % 5 === 0) writes.push(client.setPayload('r', { wait: false, points: [1000, 1001], payload: { touched: round } }));
      if (round % 9 === 0) writes.push(client.delete('r', { wait: false, points: [1002] }));
    }
    await Promise.all(writes);
    // One more write with wait=true: every earlier one is applied on both copies (FIFO per worker).
    await client.upsert('r', { wait: true, points: [{ id: 1100, vector: data[0]! }] });
    const ids = Array.from({ length: 10 }, (_, i) => 1000 + i);
    const got = await readBoth('retrieve', () => client.retrieve('r', { ids, with_payload: true, with_vector: true }));
    expectBoth(got.perWorker, got.answers.length);
    for (const a of got.answers) expect(a).toEqual(got.answers[0]);
  });
});

describe('PATCH replication_factor', () => {
  it('a copy added to a live collection receives writes at once and serves reads only once loaded', async () => {
    await client.createCollection('p', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 1 });
    await client.upsert('p', { wait: true, points: Array.from({ length: N }, (_, i) => point(i)) });
    const primary = await primaryWorker('p');
    const other = 1 - primary;

    await client.updateCollection('p', { params: { replication_factor: 2 } });
    const building = await cluster('p');
    expect(building.replicas_per_shard).toBe(2);
    expect(building.local_shards.find((s) => s.copy === 1)).toMatchObject({ worker: other, state: 'Partial' });

    // While the copy loads (the failpoint holds it LOAD_DELAY_MS): writes go on, and reads, all
    // from the primary, answer in full.
    await client.upsert('p', { wait: true, points: Array.from({ length: 50 }, (_, i) => point(N + i)) });
    await client.delete('p', { wait: true, points: [7] });
    const during = await readEach('search', 4, () => nearest('p', data[N + 10]!, 3));
    for (const a of during.answers) expect(a[0]!.id).toBe(N + 10);
    expect(during.perWorker).toEqual(primary === 0 ? [4, 0] : [0, 4]);
    for (let i = 0; i < 4; i++) expect((await client.count('p', { exact: true })).count).toBe(N + 49);
    expect((await cluster('p')).local_shards.find((s) => s.copy === 1)!.state).toBe('Partial');

    await expect.poll(async () => (await cluster('p')).local_shards.find((s) => s.copy === 1)!.state, { timeout: 20_000, interval: 200 }).toBe('Active');
    // The new copy holds what was there before it and every write made while it loaded.
    for (let i = 0; i < 4; i++) expect((await client.count('p', { exact: true })).count).toBe(N + 49);
    const after = await readBoth('search', () => nearest('p', data[N + 10]!, 3));
    expectBoth(after.perWorker, after.answers.length);
    for (const a of after.answers) expect(a).toEqual(after.answers[0]);
    const ids = [6, 7, 8, N + 10, N + 49];
    const got = await readBoth('retrieve', () => client.retrieve('p', { ids, with_payload: true, with_vector: true }));
    expectBoth(got.perWorker, got.answers.length);
    for (const a of got.answers) expect(a).toEqual(got.answers[0]);
    expect(got.answers[0]!.map((p) => p.id)).toEqual([6, 8, N + 10, N + 49]);
    expect(server.logs.some((l) => l.includes('shard copy built: serving reads'))).toBe(true);
  });

  it('lowering it drops the extra copies (data kept by the primary); above the worker count, one copy per worker', async () => {
    const primary = await primaryWorker('p');
    await client.updateCollection('p', { params: { replication_factor: 1 } });
    const c = await cluster('p');
    expect(c.replicas_per_shard).toBe(1);
    expect(c.local_shards).toHaveLength(1);
    const reads = await readEach('retrieve', 4, () => client.retrieve('p', { ids: [6, N + 49] }));
    for (const a of reads.answers) expect(a.map((p) => p.id)).toEqual([6, N + 49]);
    // One copy left: only the primary's worker holds the shard and serves it.
    expect(reads.perWorker).toEqual(primary === 0 ? [4, 0] : [0, 4]);
    expect(c.local_shards[0]!.worker).toBe(primary);

    await client.updateCollection('p', { params: { replication_factor: 5 } });
    expect((await client.getCollection('p')).config.params.replication_factor).toBe(5);
    expect((await cluster('p')).replicas_per_shard).toBe(2);
    await expect.poll(async () => (await cluster('p')).local_shards.map((s) => s.state), { timeout: 20_000, interval: 200 }).toEqual(['Active', 'Active']);
    const again = await readBoth('retrieve', () => client.retrieve('p', { ids: [6, 7, N + 49] }));
    for (const a of again.answers) expect(a).toEqual(again.answers[0]);
    expect(again.answers[0]!.map((p) => p.id)).toEqual([6, N + 49]);
    expectBoth(again.perWorker, again.answers.length);
  });

  it('refuses a replication_factor of 0 or a fraction, naming it', async () => {
    const zero = await call(server.url, 'PATCH', '/collections/p', { params: { replication_factor: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.status.error).toMatch(/replication_factor/);
    const half = await call(server.url, 'PATCH', '/collections/p', { params: { replication_factor: 1.5 } });
    expect(half.status).toBe(400);
    expect(half.body.status.error).toMatch(/replication_factor/);
    const create = await call(server.url, 'PUT', '/collections/bad', { vectors: { size: 2, distance: 'Dot' }, replication_factor: 2.5 });
    expect(create.status).toBe(400);
    expect(create.body.status.error).toMatch(/replication_factor/);
    expect((await cluster('p')).replicas_per_shard).toBe(2);
  });
});

describe('over gRPC', () => {
  it('creates, reports and changes copies as over REST', async () => {
    const g = grpcClient(server);
    await g.api('collections').create({
      collectionName: 'g',
      vectorsConfig: { config: { case: 'params', value: { size: 2n, distance: 1 } } },
      shardNumber: 1,
      replicationFactor: 2,
    });
    const both = await g.api('collections').collectionClusterInfo({ collectionName: 'g' });
    expect(both.localShards.map((s) => s.state)).toEqual([ReplicaState.Active, ReplicaState.Active]);
    await g.api('collections').update({ collectionName: 'g', params: { replicationFactor: 1 } });
    expect((await g.api('collections').get({ collectionName: 'g' })).result!.config!.params!.replicationFactor).toBe(1);
    expect((await g.api('collections').collectionClusterInfo({ collectionName: 'g' })).localShards).toHaveLength(1);
  });
});

describe('DELETE and restart', () => {
  it('dropping a collection drops every copy; the name comes back empty', async () => {
    expect(await client.deleteCollection('r')).toBe(true);
    expect((await client.collectionExists('r')).exists).toBe(false);
    await client.createCollection('r', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 2, replication_factor: 2 });
    const c = await cluster('r');
    expect(c.local_shards).toHaveLength(4);
    const counts = await readBoth('search', () => nearest('r', data[0]!, 3));
    for (const a of counts.answers) expect(a).toEqual([]);
    expectBoth(counts.perWorker, 2 * counts.answers.length); // two shards per search
    await client.upsert('r', { wait: true, points: Array.from({ length: 40 }, (_, i) => point(i)) });
  });

  it('copies load again after a restart and agree', async () => {
    await server.stop('SIGTERM');
    server = await startServer({ dataDir, shards: 2 });
    client = new QdrantClient({ url: server.url });
    const p = await cluster('p');
    expect(p.local_shards.map((s) => s.state)).toEqual(['Active', 'Active']);
    expect(p.local_shards.map((s) => s.points_count)).toEqual([N + 49, N + 49]);
    const r = await cluster('r');
    expect(r.local_shards.map((s) => [s.shard_id, s.state, s.points_count]).sort()).toEqual(
      (() => {
        const per = [0, 1].map((s) => r.local_shards.filter((x) => x.shard_id === s && x.copy === 0)[0]!.points_count);
        expect(per[0]! + per[1]!).toBe(40);
        return [[0, 'Active', per[0]], [0, 'Active', per[0]], [1, 'Active', per[1]], [1, 'Active', per[1]]];
      })(),
    );
    expect(server.logs.some((l) => l.includes('shard copies loaded') && l.includes('"copies_per_shard":2'))).toBe(true);
    const got = await readBoth('retrieve', () => client.retrieve('p', { ids: [6, 7, N + 49], with_payload: true, with_vector: true }));
    expectBoth(got.perWorker, got.answers.length);
    for (const a of got.answers) expect(a).toEqual(got.answers[0]);
    expect(got.answers[0]!.map((x) => x.id)).toEqual([6, N + 49]);
  });
});
