// The stream leader's nats-server killed with -9 during writes (docs/cluster.md section 8): a 3-server
// NATS, streams with 3 replicas, one Quiver node written through the official REST client. Each
// write answers 503 or succeeds; none acknowledged is lost, none is applied twice, and writes go
// on once NATS has elected a new leader.

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

describe('stream leader killed', () => {
  it('loses and duplicates no acknowledged write, and writes go on after a new leader', { timeout: 120_000 }, async () => {
    server = await startServer({ dataDir, shards: 1, env: { SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_STREAM_REPLICAS: '3' } });
    const c = new QdrantClient({ url: server.url });
    await c.createCollection('l', { vectors: { size: 2, distance: 'Dot' }, shard_number: 1 });
    const leader = await nats.streamLeader(streamName(1, 0));
    expect(leader).not.toBeNull();

    const acked = new Set<number>();
    const refused: string[] = [];
    let next = 0;
    let stop = false;
    let afterKill = 0;
    let killed = false;
    const writer = async (): Promise<void> => {
      while (!stop) {
        const id = next++;
        try {
          await c.upsert('l', { wait: id % 2 === 0, points: [{ id, vector: [id, 1] }] });
          acked.add(id);
          if (killed) afterKill++;
        } catch (err) {
          refused.push(String((err as { status?: number }).status ?? err));
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (acked.size < 100) await new Promise((r) => setTimeout(r, 20));
    await nats.kill(leader!);
    killed = true;
    // Writes go on once a new leader is elected (about 5-6 s on this kind of machine).
    while (afterKill < 100) await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await Promise.all(writers);
    // Every failure was a 503 (the log unavailable), never another error.
    expect(refused.every((r) => r === '503')).toBe(true);

    const newLeader = await nats.streamLeader(streamName(1, 0));
    expect(newLeader).not.toBe(leader);
    // Every acknowledged point, read back once the replica applied everything (wait=true write last).
    await c.upsert('l', { wait: true, points: [{ id: next + 1, vector: [0, 1] }] });
    acked.add(next + 1);
    const got = await c.retrieve('l', { ids: [...acked] });
    expect(got.length).toBe(acked.size);
    await server.stop('SIGTERM');
    server = null;
    const lastSeq = await nats.lastSeq(streamName(1, 0));
    // One version per entry: no entry applied twice, no write stored twice.
    const versions = shardVersions(dataDir, 1, 0);
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions.length).toBeGreaterThanOrEqual(acked.size);
    // As many points as entries (each write is a point of its own): no write stored twice.
    expect(versions.length).toBe(lastSeq);
  });
});
