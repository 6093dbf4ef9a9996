// Reads of a collection with copies (replication_factor > 1) are coordinated by the workers, not
// by the main thread: each coordinator reads its own Active copy when it holds one, else the
// least busy Active copy, from the replica table published with the catalog. Writes of such a
// collection stay on the main thread (one write order per shard). These tests show who served
// from the per-worker counters in /metrics (quiver_coordinated_requests_total: which worker
// coordinated; quiver_worker_requests_total: which worker's shard copy served), never from
// timings, and that reads stay complete and see every write answered before them while copies
// are added, dropped, and lost with their worker.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample, scrape, workerRestarts } from '../helpers/metrics.js';
import { call, randomVectors, removeDir, startServer, type TestServer } from '../helpers/server.js';

const DIM = 8;
const N = 200;
const data = randomVectors(N + 400, DIM, 29);
const point = (i: number) => ({ id: i, vector: data[i]!, payload: { i } });

const coordinated = (text: string, w: number): number => sample(text, 'quiver_coordinated_requests_total', { worker: String(w) }) ?? 0;
const served = (text: string, w: number, op: string): number => sample(text, 'quiver_worker_requests_total', { worker: String(w), op }) ?? 0;

async function ok(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(url, method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
}

interface Copy {
  shard_id: number;
  worker: number;
  copy: number;
  state: string;
  points_count: number;
}

async function copies(url: string, name: string): Promise<Copy[]> {
  return (await ok(url, 'GET', `/collections/${name}/cluster`)).local_shards as Copy[];
}

/** A collection with points 0..N-1 (but `skip`). */
async function create(url: string, name: string, shards: number, replicas: number, skip = -1): Promise<void> {
  await ok(url, 'PUT', `/collections/${name}`, { vectors: { size: DIM, distance: 'Euclid' }, shard_number: shards, replication_factor: replicas });
  const points = Array.from({ length: N }, (_, i) => i).filter((i) => i !== skip);
  await ok(url, 'PUT', `/collections/${name}/points?wait=true`, { points: points.map(point) });
}

/** One read of each kind, checked for completeness: what a reader loop sends. */
async function checkedReads(url: string, name: string, j: number, atLeast: number): Promise<string[]> {
  const problems: string[] = [];
  const [count, near, got] = await Promise.all([
    call(url, 'POST', `/collections/${name}/points/count`, { exact: true }),
    call(url, 'POST', `/collections/${name}/points/search`, { vector: data[j], limit: 1, params: { exact: true } }),
    call(url, 'POST', `/collections/${name}/points`, { ids: [j, (j + 1) % N], with_payload: true }),
  ]);
  for (const r of [count, near, got]) if (r.status !== 200) problems.push(`${r.status} ${JSON.stringify(r.body)}`);
  if (count.status === 200 && count.body.result.count < atLeast) problems.push(`count ${count.body.result.count} < ${atLeast}`);
  if (near.status === 200 && near.body.result[0]?.id !== j) problems.push(`search for ${j} found ${JSON.stringify(near.body.result[0])}`);
  if (got.status === 200 && got.body.result.length !== 2) problems.push(`retrieve of ${j} found ${got.body.result.length} points`);
  return problems;
}

describe('replication_factor 2 on 2 workers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ shards: 2 });
    await create(server.url, 'r', 1, 2);
  });
  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('reads are coordinated by both workers, each reading its own copy', async () => {
    const before = await scrape(server.url);
    const reads = 20;
    for (let i = 0; i < reads; i++) {
      const hits = await ok(server.url, 'POST', '/collections/r/points/search', { vector: data[i], limit: 1, params: { exact: true } });
      expect(hits[0].id).toBe(i);
    }
    const after = await scrape(server.url);
    const byCoordinator = [0, 1].map((w) => coordinated(after, w) - coordinated(before, w));
    const byCopy = [0, 1].map((w) => served(after, w, 'search') - served(before, w, 'search'));
    // One at a time, the coordinators about as free take turns (not exactly evenly: by room);
    // each asks the copy in its own thread.
    expect(byCoordinator[0]! + byCoordinator[1]!).toBe(reads);
    expect(Math.min(...byCoordinator)).toBeGreaterThan(0);
    expect(byCopy).toEqual(byCoordinator);
  });

  it('the other read routes are served by both copies alike', async () => {
    const before = await scrape(server.url);
    const round = async (): Promise<unknown[]> => [
      await ok(server.url, 'POST', '/collections/r/points', { ids: [1, 5, 9], with_payload: true, with_vector: true }),
      await ok(server.url, 'POST', '/collections/r/points/scroll', { limit: 5, with_payload: true }),
      await ok(server.url, 'POST', '/collections/r/points/count', { exact: true, filter: { must: [{ key: 'i', range: { lt: 50 } }] } }),
      await ok(server.url, 'POST', '/collections/r/points/query', { query: data[3], limit: 2, params: { exact: true } }),
      await ok(server.url, 'POST', '/collections/r/points/search/batch', { searches: [{ vector: data[4], limit: 1, params: { exact: true } }] }),
      await ok(server.url, 'POST', '/collections/r/points/query/batch', { searches: [{ query: data[6], limit: 1, params: { exact: true } }] }),
    ];
    const first = await round();
    expect((first[2] as { count: number }).count).toBe(50);
    // Rounds go on until every op was served by both copies (the coordinators about as free take
    // turns, and each reads its own copy); every round answers exactly as the first.
    const ops = ['retrieve', 'scroll', 'count', 'search'];
    const bothServed = (text: string): boolean => ops.every((op) => [0, 1].every((w) => served(text, w, op) > served(before, w, op)));
    let rounds = 1;
    while (!bothServed(await scrape(server.url)) && rounds < 12) {
      // One request between rounds moves each route's turn.
      if (rounds % 2 === 1) await ok(server.url, 'POST', '/collections/r/points/count', {});
      expect(await round()).toEqual(first);
      rounds++;
    }
    expect(bothServed(await scrape(server.url))).toBe(true);
  });

  it('a write answered with wait=true is seen at once by reads on every copy', async () => {
    for (let i = 0; i < 12; i++) {
      const id = N + i;
      await ok(server.url, 'PUT', '/collections/r/points?wait=true', { points: [{ id, vector: data[id], payload: { round: i } }] });
      // Four at once: the coordinators share them, each reading its own copy.
      const got = await Promise.all(Array.from({ length: 4 }, () => ok(server.url, 'POST', '/collections/r/points', { ids: [id], with_payload: true })));
      for (const g of got) expect(g).toEqual([{ id, payload: { round: i } }]);
      const counts = await Promise.all(Array.from({ length: 2 }, () => ok(server.url, 'POST', '/collections/r/points/count', { exact: true })));
      for (const c of counts) expect(c.count).toBe(N + i + 1);
    }
    // Writes of other routes (coordinated on the main thread too): payload, then delete.
    await ok(server.url, 'POST', '/collections/r/points/payload?wait=true', { points: [N], payload: { changed: true } });
    for (let i = 0; i < 2; i++) expect(await ok(server.url, 'POST', '/collections/r/points', { ids: [N], with_payload: true })).toEqual([{ id: N, payload: { round: 0, changed: true } }]);
    await ok(server.url, 'POST', '/collections/r/points/delete?wait=true', { points: [N + 1] });
    for (let i = 0; i < 2; i++) expect(await ok(server.url, 'POST', '/collections/r/points', { ids: [N + 1] })).toEqual([]);
    // Both copies hold the same points.
    expect((await copies(server.url, 'r')).map((c) => c.points_count)).toEqual([N + 11, N + 11]);
  });
});

describe('PATCH replication_factor up and down while reading and writing', () => {
  let server: TestServer;
  beforeAll(async () => {
    // New copies take a while to load, so reads and writes meet them while they are built.
    server = await startServer({ shards: 2, env: { QUIVER_FAILPOINTS: 'secondary_load_delay_ms=400' } });
    await create(server.url, 'p', 2, 1);
  });
  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('every read is complete and sees every write answered before it', async () => {
    let acked = 0;
    let stop = false;
    const problems: string[] = [];
    let readRounds = 0;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await call(server.url, 'PUT', '/collections/p/points?wait=true', { points: [{ id: N + i, vector: data[N + (i % 400)], payload: { i } }] });
        if (r.status !== 200) problems.push(`upsert: ${r.status} ${JSON.stringify(r.body)}`);
        else acked = i + 1;
      }
    })();
    const readers = Array.from({ length: 3 }, async (_, k) => {
      for (let j = k; !stop; j += 3) {
        problems.push(...(await checkedReads(server.url, 'p', j % N, N + acked)));
        readRounds++;
      }
    });
    const allActive = async (copiesPerShard: number): Promise<void> => {
      await expect
        .poll(async () => (await copies(server.url, 'p')).map((c) => c.state).join(','), { timeout: 20_000, interval: 100 })
        .toBe(Array.from({ length: 2 * copiesPerShard }, () => 'Active').join(','));
    };
    try {
      for (let round = 0; round < 2; round++) {
        await ok(server.url, 'PATCH', '/collections/p', { params: { replication_factor: 2 } });
        await allActive(2);
        await new Promise((r) => setTimeout(r, 300));
        await ok(server.url, 'PATCH', '/collections/p', { params: { replication_factor: 1 } });
        await allActive(1);
        await new Promise((r) => setTimeout(r, 300));
      }
      await ok(server.url, 'PATCH', '/collections/p', { params: { replication_factor: 2 } });
      await allActive(2);
    } finally {
      stop = true;
      await Promise.all([writer, ...readers]);
    }
    expect(problems).toEqual([]);
    expect(readRounds).toBeGreaterThan(10);
    expect(acked).toBeGreaterThan(5);
    // Every copy holds every point written.
    const end = await copies(server.url, 'p');
    for (const s of [0, 1]) {
      const counts = end.filter((c) => c.shard_id === s).map((c) => c.points_count);
      expect(counts).toHaveLength(2);
      expect(counts[1]).toBe(counts[0]);
    }
    expect(end.reduce((n, c) => n + (c.copy === 0 ? c.points_count : 0), 0)).toBe(N + acked);
  });
});

describe('a worker that dies while a replicated collection is read', () => {
  const CRASH_ID = 7;
  let server: TestServer;
  beforeAll(async () => {
    // Three workers: the one holding no copy of the shard coordinates reads that must go to a
    // copy in another worker, the dying one among them.
    server = await startServer({ shards: 3, env: { QUIVER_FAILPOINTS: `crash_on_id=${CRASH_ID}` } });
  });
  afterAll(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('reads keep answering from the other copy, and both copies serve again once it is back', async () => {
    // No point CRASH_ID in 'rr' (its writes reach both copies): the crash comes from a write to
    // 'k', a one-copy collection whose only shard sits in the worker of rr's second copy.
    await create(server.url, 'rr', 1, 2, CRASH_ID);
    await ok(server.url, 'PUT', '/collections/k', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 1 });
    const rr = await copies(server.url, 'rr');
    const dying = (await copies(server.url, 'k'))[0]!.worker;
    expect(rr.find((c) => c.copy === 1)!.worker).toBe(dying);
    const holders = rr.map((c) => c.worker);
    const outsider = [0, 1, 2].find((w) => !holders.includes(w))!;

    const before = await scrape(server.url);
    let stop = false;
    const problems: string[] = [];
    const lostCoordinator: string[] = [];
    const read = async (j: number): Promise<void> => {
      const id = j % N === CRASH_ID ? CRASH_ID + 1 : j % N;
      const r = await call(server.url, 'POST', '/collections/rr/points/search', { vector: data[id], limit: 1, params: { exact: true } });
      // A read coordinated by the dying thread itself fails with it (503 naming it, as for any
      // route); a read that only asked its copy is retried on the other copy.
      // (A sibling's failure names the shards it reloads: those must never reach the client.)
      const error = String(r.body?.status?.error);
      if (r.status === 503 && error.startsWith(`Worker ${dying} failed: `) && !error.includes('shards')) lostCoordinator.push(error);
      else if (r.status !== 200 || r.body.result[0]?.id !== id) problems.push(`${r.status} ${JSON.stringify(r.body)}`);
    };
    const readers = Array.from({ length: 3 }, async (_, k) => {
      for (let j = k; !stop; j += 3) await read(j);
    });
    const BURST = 60;
    try {
      await new Promise((r) => setTimeout(r, 300));
      // With a burst of reads at the same moment, some are queued at the dying copy when it dies.
      const [crash] = await Promise.all([
        call(server.url, 'PUT', '/collections/k/points?wait=true', { points: [{ id: CRASH_ID, vector: data[CRASH_ID] }] }),
        ...Array.from({ length: BURST }, (_, j) => read(j)),
      ]);
      expect(crash!.status).toBe(503);
      await expect.poll(async () => workerRestarts(await scrape(server.url)), { timeout: 10_000 }).toBe(1);
      await expect.poll(async () => (await copies(server.url, 'rr')).map((c) => c.state).join(','), { timeout: 20_000, interval: 100 }).toBe('Active,Active');
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      stop = true;
      await Promise.all(readers);
    }
    expect(problems).toEqual([]);
    // At most the reads in flight on the dying coordinator.
    expect(lostCoordinator.length).toBeLessThanOrEqual(3 + BURST);
    const mid = await scrape(server.url);
    expect(coordinated(mid, outsider)).toBeGreaterThan(coordinated(before, outsider));

    // Back: the coordinator without a copy spreads its reads over both copies again.
    const holdersBefore = holders.map((w) => served(mid, w, 'search'));
    for (let i = 0; i < 30; i++) expect((await ok(server.url, 'POST', '/collections/rr/points/search', { vector: data[20 + i], limit: 1, params: { exact: true } }))[0].id).toBe(20 + i);
    const end = await scrape(server.url);
    holders.forEach((w, i) => expect(served(end, w, 'search'), `worker ${w}`).toBeGreaterThan(holdersBefore[i]!));
    expect((await copies(server.url, 'rr')).map((c) => c.points_count)).toEqual([N - 1, N - 1]);
  });
});
