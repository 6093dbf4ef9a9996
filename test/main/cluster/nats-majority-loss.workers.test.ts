// Two of three nats-servers killed (docs/cluster.md section 8, last row): the write log has no quorum,
// so writes answer 503 with Retry-After (the client may retry; nothing it was told is stored is
// lost), while reads go on from what the replica applied. Once the servers are back, writes go on,
// and every acknowledged point is there once.

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamName } from '../../../src/shared/log-entry.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';
import { startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { shardVersions } from '../../helpers/disk.js';
import { removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';

let nats: NatsCluster;
let etcd: EtcdCluster;
let server: TestServer | null = null;
const dataDir = tempDataDir();

// startNats(3) may start a fresh cluster twice when one refuses placement (test/helpers/nats.ts).
beforeAll(async () => {
  [nats, etcd] = await Promise.all([startNats(3), startEtcd(1)]);
}, 150_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await Promise.all([nats?.close(), etcd?.stop()]);
  removeDir(dataDir);
});

const vector = (id: number): number[] => [Math.cos(id), Math.sin(id)];

describe('two of three nats-servers down', () => {
  it('writes answer 503 with Retry-After, reads go on, and after the servers return writes go on with nothing lost', { timeout: 150_000 }, async () => {
    server = await startServer({ dataDir, shards: 1, env: { SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_STREAM_REPLICAS: '3' } });
    const c = new QdrantClient({ url: server.url });
    await c.createCollection('m', { vectors: { size: 2, distance: 'Cosine' }, shard_number: 1 });
    const acked = new Set<number>();
    for (let id = 1; id <= 50; id++) {
      await c.upsert('m', { wait: id % 2 === 0, points: [{ id, vector: vector(id), payload: { id } }] });
      acked.add(id);
    }
    // The last write was wait=true: the replica holds all 50.
    expect((await c.count('m', { exact: true })).count).toBe(50);

    // Keep the stream leader's server: the two others go (the stream still loses its quorum).
    const leader = (await nats.streamLeader(streamName(1, 0)))!;
    const gone = [0, 1, 2].filter((i) => i !== leader);
    await Promise.all(gone.map((i) => nats.kill(i)));

    // A write: 503 with Retry-After, in the data error envelope, naming the log.
    const t0 = Date.now();
    const res = await fetch(`${server.url}/collections/m/points?wait=true`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ points: [{ id: 1000, vector: vector(1000) }] }),
    });
    const refusedAfterMs = Date.now() - t0;
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await res.json()) as { status: { error: string } };
    expect(body.status.error).toMatch(/Write log of shard 0 unavailable .*retry the request/);
    console.log(`nats majority loss: write refused after ${refusedAfterMs} ms`);

    // Reads go on from what the replica applied: count, retrieve and an exact top-1.
    expect((await c.count('m', { exact: true })).count).toBe(50);
    expect((await c.retrieve('m', { ids: [7, 8] })).map((p) => p.id).sort()).toEqual([7, 8]);
    const top = await c.query('m', { query: vector(33), limit: 1, params: { exact: true } });
    expect(top.points[0]?.id).toBe(33);

    // The servers return: writes go on (retried while NATS elects a leader again).
    await Promise.all(gone.map((i) => nats.start(i)));
    const back = Date.now();
    for (let id = 51; id <= 60; ) {
      try {
        await c.upsert('m', { wait: true, points: [{ id, vector: vector(id), payload: { id } }] });
        acked.add(id);
        id++;
      } catch (err) {
        expect((err as { status?: number }).status).toBe(503);
        if (Date.now() - back > 60_000) throw new Error(`writes did not come back within 60 s: ${String(err)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const got = await c.retrieve('m', { ids: [...acked], with_payload: true });
    expect(got.length).toBe(acked.size);
    for (const p of got) expect(p.payload).toEqual({ id: p.id });

    // No write stored twice, no entry applied twice (each write is a point of its own; the
    // refused write may or may not be stored, as its 503 says).
    await server.stop('SIGTERM');
    server = null;
    const lastSeq = await nats.lastSeq(streamName(1, 0));
    const versions = shardVersions(dataDir, 1, 0);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions.length).toBe(lastSeq);
    expect(versions.length - acked.size).toBeLessThanOrEqual(1);
  });
});
