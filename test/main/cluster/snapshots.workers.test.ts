// Shard snapshots in a real server (compiled, spawned, stopped by PID) with a one-server NATS and
// a one-member etcd: every `SERVICE_CLUSTER_SNAPSHOT_ENTRIES` entries each shard is snapshotted to
// the object store, recorded in etcd and its stream purged to start right after it; after kill -9
// the node resumes from its applied_seq (at or past the purge) with every acknowledged point.

import { Etcd3 } from 'etcd3';
import { jetstreamManager } from '@nats-io/jetstream';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SnapshotRecord } from '../../../src/main/cluster/snapshots.js';
import { streamName } from '../../../src/shared/log-entry.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';
import { removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';

let nats: NatsCluster;
let etcd: EtcdCluster;
let etcdClient: Etcd3;
const dataDir = tempDataDir();
const servers: TestServer[] = [];

async function start(): Promise<TestServer> {
  const s = await startServer({
    dataDir,
    shards: 2,
    env: {
      SERVICE_CLUSTER_NATS: nats.servers,
      SERVICE_CLUSTER_ETCD: etcd.endpoints,
      SERVICE_CLUSTER_PORT: '0',
      SERVICE_CLUSTER_STREAM_REPLICAS: '1',
      SERVICE_CLUSTER_LEASE_SECONDS: '2',
      SERVICE_CLUSTER_SNAPSHOT_ENTRIES: '20',
    },
  });
  servers.push(s);
  return s;
}

/** The snapshot records in etcd, by `<id>/<shard>`. */
async function records(): Promise<Record<string, SnapshotRecord>> {
  const all = await etcdClient.getAll().prefix('/quiver/snapshots/').strings();
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k.slice('/quiver/snapshots/'.length), JSON.parse(v) as SnapshotRecord]));
}

async function firstSeq(collection: number, shard: number): Promise<number> {
  const nc = await nats.connect();
  try {
    return (await (await jetstreamManager(nc)).streams.info(streamName(collection, shard))).state.first_seq;
  } finally {
    await nc.close();
  }
}

describe.skipIf(etcdMissing() !== null)('scheduled shard snapshots in a server', () => {
  beforeAll(async () => {
    [nats, etcd] = await Promise.all([startNats(1), startEtcd(1)]);
    etcdClient = new Etcd3({ hosts: etcd.endpoints.split(',') });
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    etcdClient?.close();
    await nats?.close();
    await etcd?.stop();
    removeDir(dataDir);
  });

  it('snapshots each shard every 20 entries, purges its stream below, and resumes after kill -9 with every acknowledged point', { timeout: 240_000 }, async () => {
    let s = await start();
    const c = new QdrantClient({ url: s.url });
    await c.createCollection('snaps', { vectors: { size: 4, distance: 'Cosine' }, shard_number: 2 });
    const acked: number[] = [];
    for (let id = 0; id < 90; id++) {
      await c.upsert('snaps', { wait: id % 3 === 0, points: [{ id, vector: [id, 1, 2, 3], payload: { id } }] });
      acked.push(id);
    }
    // Both shards got well over 20 entries: each has a record, and its stream starts right after it.
    await vi.waitFor(
      async () => {
        const r = await records();
        expect(Object.keys(r).sort()).toEqual(['1/0', '1/1']);
        for (const [key, rec] of Object.entries(r)) {
          const shard = Number(key.split('/')[1]);
          expect(rec.seq).toBeGreaterThanOrEqual(20);
          expect(rec.object).toBe(`1-${shard}-${rec.seq}`);
          expect(await firstSeq(1, shard)).toBe(rec.seq + 1);
        }
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(s.logs.some((l) => l.includes('"msg":"cluster: shard snapshot stored"'))).toBe(true);

    await s.stop('SIGKILL');
    s = await start();
    const c2 = new QdrantClient({ url: s.url });
    await vi.waitFor(async () => expect((await c2.count('snaps', { exact: true })).count).toBe(acked.length), { timeout: 60_000, interval: 200 });
    const back = await c2.retrieve('snaps', { ids: acked, with_payload: true });
    expect(back.map((p) => p.id).sort((x, y) => Number(x) - Number(y))).toEqual(acked);
    // And it goes on writing after the purge.
    expect((await c2.upsert('snaps', { wait: true, points: [{ id: 1000, vector: [1, 1, 1, 1] }] })).status).toBe('completed');
    await s.stop('SIGTERM');
  });
});
