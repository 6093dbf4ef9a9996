// A move whose source dies before its target is Active, on three Quiver nodes (1 worker each, 15 s
// leases so a paused target stays live while the test acts, 2 s dead grace) on one etcd and one
// NATS server, all started by PID. A replica catches
// up from the shard's write log, not from another replica, so the move needs nothing from its
// source: the target becomes Active with every acknowledged point, the move ends, and the dead
// source holds no replica of the shard when it comes back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { etcdMissing } from '../../helpers/etcd.js';
import { call, type TestServer } from '../../helpers/server.js';
import { startThreeNodes, until, type ThreeNodes } from '../../helpers/three-nodes.js';

const C = 'src_dies';
const N = 40;

describe.skipIf(etcdMissing() !== null)('three nodes: a move whose source is killed -9 before the target is Active', () => {
  let cluster: ThreeNodes;
  let id = 0;

  const replicas = async (): Promise<string[]> => (await cluster.assignment(id, 0))!.replicas.map((r) => `${r.node}:${r.state}`);
  const transfers = async (n: TestServer): Promise<unknown[]> => (await call(n.url, 'GET', `/collections/${C}/cluster`)).body.result.shard_transfers as unknown[];
  const count = async (n: TestServer): Promise<number> => (await call(n.url, 'POST', `/collections/${C}/points/count?consistency=all`, { exact: true })).body.result.count as number;

  beforeAll(async () => {
    cluster = await startThreeNodes({ leaseSeconds: 15 });
    id = await cluster.oneReplicaCollection(C, N);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('the target catches up from the log alone, becomes Active with every point, and the move ends; the source comes back without the shard', { timeout: 180_000 }, async () => {
    const { nodes, ids } = cluster;
    const src = (await cluster.assignment(id, 0))!.replicas[0]!.node;
    const si = ids.indexOf(src);
    // The target: not the controller, which must settle the move while the target is paused.
    const controller = Number((await call(nodes[si]!.url, 'GET', '/cluster')).body.result.raft_info.leader);
    const ti = ids.findIndex((n) => n !== src && n !== controller);
    const to = ids[ti]!;
    const target = nodes[ti]!;
    const live = nodes.filter((_, i) => i !== si);
    // Paused (well within its lease) so that its replica cannot become Active before the source dies.
    target.proc.kill('SIGSTOP');
    try {
      const moved = await call(nodes[si]!.url, 'POST', `/collections/${C}/cluster`, { move_shard: { shard_id: 0, from_peer_id: src, to_peer_id: to } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(await replicas()).toEqual([`${src}:Active`, `${to}:Initializing`]);
      await nodes[si]!.stop('SIGKILL');
    } finally {
      target.proc.kill('SIGCONT');
    }

    let seen: string[] = [];
    await until(
      () => `the shard Active on ${to} alone (last seen ${JSON.stringify(seen)})`,
      async () => {
        seen = await replicas();
        return seen.join() === `${to}:Active` ? true : undefined;
      },
      90_000,
    );
    for (const n of live) await until('the transfer gone from every live node', async () => ((await transfers(n)).length === 0 ? true : undefined));
    await until('etcd to hold no transfer', async () => ((await cluster.kv.getAll().prefix(`/quiver/transfers/${id}/`).keys()).length === 0 ? true : undefined));
    for (const n of live) expect(await count(n)).toBe(N);
    // Writes go on through the new replica.
    const client = new QdrantClient({ url: live[0]!.url });
    expect((await client.upsert(C, { wait: true, points: [{ id: N + 1, vector: [1, N] }] })).status).toBe('completed');
    for (const n of live) expect(await count(n)).toBe(N + 1);

    // The source returns: it is given no replica of the shard back, and reads through it see everything.
    await cluster.start(si);
    await until('the restarted source registered', async () => ((await cluster.kv.get(`/quiver/nodes/${src}`).string()) !== null ? true : undefined));
    await until('reads through the restarted source', async () => ((await count(cluster.nodes[si]!)) === N + 1 ? true : undefined));
    expect(await replicas()).toEqual([`${to}:Active`]);
  });
});
