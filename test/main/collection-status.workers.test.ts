// Collection status while a restarted shard catches up, on the real server over a real LMDB dir:
// after kill -9, writes made after the last graph save are replayed; past DEFER_REPLAY_MIN (512)
// of them, the shard is ready at once and adds them to its restored graph in the background
// (searched exactly meanwhile). Collection info says so as Qdrant says "optimizations running":
// status yellow, over REST and gRPC alike, then green once the graph holds every row.
//
// The replay is made large (12,000 writes of 64-d vectors, about a second of hnswlib inserts
// on a quiet machine) so that the yellow phase outlasts a poll, and the poll starts before the
// server is ready, so none of the phase is missed waiting for readiness.

import { CollectionStatus, type QdrantClient as GrpcClient } from '@qdrant/js-client-grpc';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, describe, expect, it } from 'vitest';
import { grpcClient } from '../helpers/grpc.js';
import { call, removeDir, rng, startServer, tempDataDir, type TestServer } from '../helpers/server.js';

const running: TestServer[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const s of running) await s.stop('SIGKILL');
  for (const d of dirs) removeDir(d);
});

// No save but the one at a clean stop: every write of the second run is replayed after kill -9.
const ENV = { SERVICE_GRAPH_SAVE_WRITES: '0', SERVICE_GRAPH_SAVE_SECONDS: '0' };
const DIM = 64;
const SAVED = 1000;
const REPLAYED = 12_000;

async function start(dataDir: string, waitReady = true): Promise<TestServer> {
  const s = await startServer({ dataDir, shards: 1, env: ENV, waitReady });
  running.push(s);
  return s;
}

function vectors(n: number, seed: number): number[][] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: DIM }, () => r() * 2 - 1));
}

async function ingest(client: QdrantClient, from: number, data: number[][]): Promise<void> {
  for (let i = 0; i < data.length; i += 500) {
    await client.upsert('st', { wait: true, points: data.slice(i, i + 500).map((v, j) => ({ id: from + i + j, vector: v })) });
  }
}

/** REST status, or the HTTP status while the engine loads (412). */
async function restStatus(s: TestServer): Promise<string> {
  const r = await call(s.url, 'GET', '/collections/st');
  if (r.status !== 200) return String(r.status);
  return (r.body as { result: { status: string } }).result.status;
}

/** gRPC status by name, or 'refused' while the engine loads (FAILED_PRECONDITION). */
async function grpcStatus(client: GrpcClient): Promise<string> {
  try {
    const info = (await client.api('collections').get({ collectionName: 'st' })).result;
    return CollectionStatus[info?.status ?? CollectionStatus.UnknownCollectionStatus];
  } catch {
    return 'refused';
  }
}

describe('collection status', () => {
  it('is yellow while a restarted shard adds replayed writes to its graph in the background, then green (REST and gRPC)', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const base = vectors(SAVED, 1);
    const late = vectors(REPLAYED, 2);

    // A saved graph of SAVED points (SIGTERM saves it), then REPLAYED writes no save covers.
    const s1 = await start(dataDir);
    const c1 = new QdrantClient({ url: s1.url });
    await c1.createCollection('st', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 1 });
    await ingest(c1, 0, base);
    expect(await restStatus(s1)).toBe('green');
    expect(await s1.stop('SIGTERM')).toBe(0);
    const s2 = await start(dataDir);
    await ingest(new QdrantClient({ url: s2.url }), SAVED, late);
    expect(await restStatus(s2)).toBe('green');
    await s2.stop('SIGKILL');

    // Polled from spawn: 412 while the shard loads, then yellow, then green.
    const s3 = await start(dataDir, false);
    const g3 = grpcClient(s3);
    const rest: string[] = [];
    const grpc: string[] = [];
    const seen = (list: string[], v: string): void => {
      if (list.at(-1) !== v) list.push(v);
    };
    let checkedWhileYellow = false;
    let yellowPolls = 0;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && !(rest.at(-1) === 'green' && grpc.at(-1) === 'Green')) {
      const [r, g] = await Promise.all([restStatus(s3), grpcStatus(g3)]);
      seen(rest, r);
      if (r === 'yellow') yellowPolls++;
      seen(grpc, g);
      if (r === 'yellow' && !checkedWhileYellow) {
        checkedWhileYellow = true;
        // Meanwhile every point is there, and a replayed one is found by its own vector.
        const c3 = new QdrantClient({ url: s3.url });
        expect((await c3.count('st', { exact: true })).count).toBe(SAVED + REPLAYED);
        expect((await c3.query('st', { query: late[REPLAYED - 1]!, limit: 1 })).points[0]!.id).toBe(SAVED + REPLAYED - 1);
        // The background work shows as an `indexing` optimization of the shard's segment, unless
        // it ended meanwhile (then the segment is idle).
        const opt = (await call(s3.url, 'GET', '/collections/st/optimizations')).body.result;
        if (opt.running.length === 1) expect(opt.running[0]).toMatchObject({ optimizer: 'indexing', status: 'optimizing', segments: [{ points_count: SAVED + REPLAYED }] });
        else expect(opt.summary.idle_segments).toBe(1);
      }
      await new Promise((res) => setTimeout(res, 10));
    }
    console.log(`yellow for ${yellowPolls} polls`);
    // The shard was ready before the replayed writes were in its graph.
    const loaded = s3.logs.map((l) => l).find((l) => l.includes('"msg":"collection loaded"'));
    expect(loaded).toContain(`"replayed_writes":${REPLAYED}`);
    expect(loaded).toContain('"graphs_loaded":1');
    expect(rest.filter((v) => v !== '412')).toEqual(['yellow', 'green']);
    expect(grpc.filter((v) => v !== 'refused')).toEqual(['Yellow', 'Green']);
    expect(checkedWhileYellow).toBe(true);
    // Green means the graph holds them: the indexed count is every point.
    const info = (await call(s3.url, 'GET', '/collections/st')).body as { result: { indexed_vectors_count: number; points_count: number } };
    expect(info.result).toMatchObject({ points_count: SAVED + REPLAYED, indexed_vectors_count: SAVED + REPLAYED });
    await s3.stop('SIGTERM');
  }, 300_000);
});
