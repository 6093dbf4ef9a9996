// One Quiver node against a 3-member etcd (all three endpoints given) while each member in turn is
// killed with -9 and brought back: whichever member its lease keep-alive used, the node keeps or
// regains its registration and serves data again (its keep-alive once hung for good on a killed
// member: no answer, no error, and the node answered 503 to the end).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 60_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(etcdMissing() !== null)('etcd member killed under a node', () => {
  let etcd: EtcdCluster;
  let nats: NatsCluster;
  let server: TestServer;
  const dir = tempDataDir();

  beforeAll(async () => {
    [etcd, nats] = await Promise.all([startEtcd(3), startNats(1)]);
    server = await startServer({
      dataDir: dir,
      shards: 1,
      env: { SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_STREAM_REPLICAS: '1', SERVICE_CLUSTER_LEASE_SECONDS: '2' },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await Promise.all([etcd?.stop(), nats?.close()]);
    removeDir(dir);
  });

  it('each member killed -9 in turn: the node is registered and serving after each', { timeout: 300_000 }, async () => {
    const id = Number((await call(server.url, 'GET', '/cluster')).body.result.peer_id);
    for (const m of etcd.members) {
      await etcd.stopMember(m, 'SIGKILL');
      // Longer than the lease and the watchdog: a hung keep-alive has lapsed by now.
      await new Promise((r) => setTimeout(r, 5000));
      const others = etcd.members.filter((x) => x !== m).map((x) => x.clientUrl);
      const kv = new Etcd3({ hosts: others });
      try {
        await until(`node ${id} registered with ${m.name} down`, async () => ((await kv.get(`/quiver/nodes/${id}`).string()) !== null ? true : undefined));
      } finally {
        kv.close();
      }
      const r = await until(`the node serving with ${m.name} down`, async () => {
        const res = await call(server.url, 'GET', '/collections');
        return res.status === 200 ? res : undefined;
      });
      expect(r.body.status).toBe('ok');
      await etcd.restartMember(m);
    }
  });
});
