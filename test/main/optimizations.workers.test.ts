// GET /collections/{name}/optimizations through the real server (REST client and fetch): each
// shard a segment with a fixed UUID and its points, none running on a quiet collection, the
// optional parts by `with`, and the refusals. A running optimization (a shard adding replayed rows
// in the background) is checked in collection-status.workers.test.ts, where one reliably runs.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentUuid } from '../../src/main/service/optimizations.js';
import { call, removeDir, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: QdrantClient;
const N = 40;

beforeAll(async () => {
  server = await startServer({ shards: 2 });
  client = new QdrantClient({ url: server.url, checkCompatibility: false });
  await client.createCollection('op', { vectors: { size: 2, distance: 'Dot' }, shard_number: 3 });
  await client.upsert('op', { wait: true, points: Array.from({ length: N }, (_, i) => ({ id: i, vector: [1, i] })) });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  removeDir(server.dataDir);
});

describe('optimizations', () => {
  it('a quiet collection: nothing running or queued, every shard an idle segment', async () => {
    const res = await call(server.url, 'GET', '/collections/op/optimizations');
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ summary: { queued_optimizations: 0, queued_segments: 0, queued_points: 0, idle_segments: 3 }, running: [] });
  });

  it('with=idle_segments,queued,completed: the segments by UUID with their points, and empty lists', async () => {
    const res = await call(server.url, 'GET', '/collections/op/optimizations?with=idle_segments,queued,completed');
    const r = res.body.result;
    expect(r.queued).toEqual([]);
    expect(r.completed).toEqual([]);
    expect(r.idle_segments).toHaveLength(3);
    expect(r.idle_segments.reduce((n: number, s: { points_count: number }) => n + s.points_count, 0)).toBe(N);
    const uuids = r.idle_segments.map((s: { uuid: string }) => s.uuid);
    expect(new Set(uuids).size).toBe(3);
    for (const u of uuids) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(segmentUuid(7, 2)).toBe('00000000-0000-8007-8000-000000000002');
  });

  it('refuses an unknown part and an unknown collection', async () => {
    const res = await call(server.url, 'GET', '/collections/op/optimizations?with=everything');
    expect(res.status).toBe(400);
    expect(res.body.status.error).toBe('Deserialize error in query parameters: with: unknown variant `everything`, expected one of `queued`, `completed`, `idle_segments`');
    expect((await call(server.url, 'GET', '/collections/nope/optimizations')).status).toBe(404);
  });
});

describe('cluster telemetry', () => {
  it('single node: each shard with its one replica on peer 0 and its points; the cluster disabled', async () => {
    const res = await call(server.url, 'GET', '/cluster/telemetry?details_level=3');
    expect(res.status).toBe(200);
    const op = res.body.result.collections.op;
    expect(op.id).toBe('op');
    expect(op.shards.map((s: { id: number }) => s.id)).toEqual([0, 1, 2]);
    for (const s of op.shards) expect(s.replicas).toEqual([{ peer_id: 0, state: 'Active', num_points: expect.any(Number) }]);
    expect(op.shards.reduce((n: number, s: { replicas: { num_points: number }[] }) => n + s.replicas[0]!.num_points, 0)).toBe(N);
    expect(res.body.result.cluster).toEqual({ enabled: false, peers: {} });
  });
});

