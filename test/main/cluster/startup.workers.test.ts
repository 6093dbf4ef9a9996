// Cluster mode's start-up and one node's life against a real etcd and NATS: one of
// SERVICE_CLUSTER_ETCD / SERVICE_CLUSTER_NATS without the other, a bad endpoint list or an etcd
// that does not answer stops start-up (exit 2) with a message naming it; a node keeps its id in
// the data dir, shows itself in GET /cluster, keeps its lease through a busy main loop (the etcd
// client runs in its own thread), and leaves etcd at once on SIGTERM.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { freePort } from '../../helpers/ports.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

async function refused(env: Record<string, string>): Promise<string> {
  const dir = tempDataDir();
  try {
    await startServer({ dataDir: dir, shards: 1, env });
  } catch (e) {
    return (e as Error).message;
  } finally {
    removeDir(dir);
  }
  throw new Error('the server started');
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 20_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('cluster start-up refusals', () => {
  let nats: NatsCluster;
  beforeAll(async () => {
    nats = await startNats(1);
  });
  afterAll(async () => {
    await nats?.close();
  });

  it('SERVICE_CLUSTER_ETCD without SERVICE_CLUSTER_NATS (and the reverse) stops start-up with exit 2, naming the missing one', async () => {
    const noNats = await refused({ SERVICE_CLUSTER_ETCD: 'http://127.0.0.1:2379' });
    expect(noNats).toMatch(/exited with 2/);
    expect(noNats).toContain('quiver: cluster mode needs both SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS: SERVICE_CLUSTER_ETCD is set but SERVICE_CLUSTER_NATS is not');
    const noEtcd = await refused({ SERVICE_CLUSTER_NATS: nats.servers });
    expect(noEtcd).toMatch(/exited with 2/);
    expect(noEtcd).toContain('quiver: cluster mode needs both SERVICE_CLUSTER_ETCD and SERVICE_CLUSTER_NATS: SERVICE_CLUSTER_NATS is set but SERVICE_CLUSTER_ETCD is not');
  });

  it('a bad SERVICE_CLUSTER_ETCD stops start-up with exit 2, naming the variable and the item', async () => {
    const msg = await refused({ SERVICE_CLUSTER_ETCD: 'http://127.0.0.1:2379,etcd-without-port', SERVICE_CLUSTER_NATS: nats.servers });
    expect(msg).toMatch(/exited with 2/);
    expect(msg).toContain('quiver: SERVICE_CLUSTER_ETCD="http://127.0.0.1:2379,etcd-without-port": "etcd-without-port" is not a host:port endpoint');
  });

  it('an etcd that does not answer stops start-up with exit 2, naming the endpoint', async () => {
    const port = await freePort();
    const msg = await refused({ SERVICE_CLUSTER_ETCD: `127.0.0.1:${port}`, SERVICE_CLUSTER_NATS: nats.servers });
    expect(msg).toMatch(/exited with 2/);
    expect(msg).toContain(`quiver: cannot reach etcd at http://127.0.0.1:${port}`);
  });
});

describe.skipIf(etcdMissing() !== null)('the snapshot bucket cannot be opened', () => {
  it('start-up retries it for 30 s, then stops with exit 2 naming the bucket and SERVICE_CLUSTER_NATS', { timeout: 90_000 }, async () => {
    // One nats-server cannot place a bucket of 3 replicas: every attempt fails, as every one did
    // while a fault run's NATS elected its meta leader (there the next attempt got through).
    const [etcd, nats] = await Promise.all([startEtcd(1), startNats(1)]);
    try {
      const t0 = Date.now();
      const msg = await refused({ SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_STREAM_REPLICAS: '3', SERVICE_CLUSTER_PORT: '0' });
      expect(msg).toMatch(/exited with 2/);
      expect(msg).toMatch(/quiver: cannot open the snapshot bucket QV_SNAPSHOTS on NATS \(SERVICE_CLUSTER_NATS\) within 30 s: /);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(30_000);
    } finally {
      await Promise.all([etcd.stop(), nats.close()]);
    }
  });
});

describe.skipIf(etcdMissing() !== null)('one node in cluster mode', () => {
  let etcd: EtcdCluster;
  let nats: NatsCluster;
  let dir: string;
  let server: TestServer;
  let clusterPort: number;
  const env = (): Record<string, string> => ({
    SERVICE_CLUSTER_ETCD: etcd.endpoints,
    SERVICE_CLUSTER_NATS: nats.servers,
    SERVICE_CLUSTER_STREAM_REPLICAS: '1',
    SERVICE_CLUSTER_PORT: String(clusterPort),
    SERVICE_CLUSTER_LEASE_SECONDS: '2',
    QUIVER_FAILPOINTS: 'cluster_block_main_ms=3000',
  });
  beforeAll(async () => {
    [etcd, nats] = await Promise.all([startEtcd(1), startNats(1)]);
    dir = tempDataDir();
    clusterPort = await freePort();
    server = await startServer({ dataDir: dir, shards: 1, env: env() });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await Promise.all([etcd?.stop(), nats?.close()]);
    if (dir) removeDir(dir);
  });

  it('GET /cluster: enabled, its own peer_id from the data dir, itself as the only peer and the controller', async () => {
    const id = Number(readFileSync(join(dir, 'node-id'), 'utf8').trim());
    expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    const status = await until('this node elected controller', async () => {
      const r = await call(server.url, 'GET', '/cluster');
      return r.body.result?.raft_info?.leader === id ? r : undefined;
    });
    expect(status.status).toBe(200);
    const result = status.body.result;
    expect(result).toMatchObject({
      status: 'enabled',
      peer_id: id,
      peers: { [String(id)]: { uri: `http://127.0.0.1:${clusterPort}/` } },
      raft_info: { leader: id, role: 'Leader', pending_operations: 0, is_voter: true },
      consensus_thread_status: { consensus_thread_status: 'working' },
      message_send_failures: {},
    });
    expect(Object.keys(result.peers)).toEqual([String(id)]);
    expect(result.raft_info.term).toBeGreaterThanOrEqual(1);
    expect(result.raft_info.commit).toBeGreaterThanOrEqual(1);
    expect(Number.isNaN(Date.parse(result.consensus_thread_status.last_update))).toBe(false);
  });

  it('keeps its 2 s lease through a 3 s busy main loop, and serves data after it', async () => {
    const line = await until('the failpoint to release the main loop', async () => server.logs.find((l) => l.includes('failpoint: main loop unblocked')));
    expect(JSON.parse(line)).toMatchObject({ ms: 3000, lease_held: true });
    expect(server.logs.some((l) => l.includes('lease lost'))).toBe(false);
    expect((await call(server.url, 'GET', '/collections')).status).toBe(200);
  });

  it('SIGTERM removes its key from etcd at once; a restart keeps the same peer_id', async () => {
    const client = new Etcd3({ hosts: etcd.endpoints });
    try {
      const before = await call(server.url, 'GET', '/cluster');
      const id = before.body.result.peer_id as number;
      expect(await client.get(`/quiver/nodes/${id}`).string()).not.toBeNull();
      const code = await server.stop('SIGTERM');
      expect(code, server.logs.slice(-15).join('\n')).toBe(0);
      // Revoked on the way out, not left to expire.
      expect(await client.get(`/quiver/nodes/${id}`).string()).toBeNull();
      server = await startServer({ dataDir: dir, shards: 1, env: env() });
      const after = await call(server.url, 'GET', '/cluster');
      expect(after.body.result.peer_id).toBe(id);
      const record = JSON.parse((await client.get(`/quiver/nodes/${id}`).string()) ?? 'null');
      expect(record).toMatchObject({ id, advertise: `127.0.0.1:${clusterPort}`, rest_port: server.port, grpc_port: server.grpcPort, workers: 1 });
    } finally {
      client.close();
    }
  });
});
