// The controller's side of the cluster operations against a real etcd, with the control plane's
// lifecycle played by the test (it writes the target Active as the control loop would): requests
// answered through requests/<uuid>/result, transfers recorded and settled (a move drops its source
// only once the target is Active), a peer drained or force-removed (its id kept as removed; a
// drain whose target died started again), and a deposed controller that
// answers nothing and writes nothing (the asker gets a bounded 503-class result).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Etcd3 } from 'etcd3';
import { askController, ClusterOpsServer, TransfersMirror } from '../../../src/control/cluster-ops-server.js';
import type { Assignment, ClusterRequest, Transfer } from '../../../src/shared/cluster/cluster-ops.js';
import type { FenceToken } from '../../../src/control/fenced.js';
import type { FromEtcdThread } from '../../../src/shared/cluster/messages.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';

async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 20_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(etcdMissing() !== null)('ClusterOpsServer', () => {
  let etcd: EtcdCluster;
  let client: Etcd3;
  let server: ClusterOpsServer;
  let mirror: TransfersMirror;
  let resign: () => Promise<void> = async () => undefined;
  const events: FromEtcdThread[] = [];
  const emit = (m: FromEtcdThread): void => void events.push(m);

  const assign = async (shard: number): Promise<Assignment> => JSON.parse((await client.get(`/quiver/assign/7/${shard}`).string())!) as Assignment;
  const put = (shard: number, a: Assignment): Promise<unknown> => client.put(`/quiver/assign/7/${shard}`).value(JSON.stringify(a)).exec();
  const transfers = async (): Promise<string[]> => (await client.getAll().prefix('/quiver/transfers/7/').keys()).sort();
  const shardReq = (op: Extract<ClusterRequest, { type: 'shard' }>['op']): ClusterRequest => ({ type: 'shard', collectionId: 7, collection: 'c', shardCount: 2, op });
  /** Plays the control plane: the replica on `node` has caught up. */
  const activate = async (shard: number, node: number): Promise<void> => {
    const a = await assign(shard);
    await put(shard, { ...a, epoch: a.epoch + 1, replicas: a.replicas.map((r) => (r.node === node ? { ...r, state: 'Active' } : r)) });
  };

  beforeAll(async () => {
    etcd = await startEtcd(1);
    client = new Etcd3({ hosts: etcd.endpoints });
    for (const n of [1, 2, 3, 4]) await client.put(`/quiver/nodes/${n}`).value(JSON.stringify({ id: n, advertise: `127.0.0.1:${n}` })).exec();
    await put(0, { epoch: 1, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }] });
    await put(1, { epoch: 1, replicas: [{ node: 2, state: 'Active' }] });
    const campaign = client.namespace('/quiver/').election('controller', 5).campaign('1');
    await new Promise<void>((res, rej) => {
      campaign.once('elected', () => res());
      campaign.once('error', rej);
    });
    const key = await campaign.getCampaignKey();
    const kv = (await client.get(key).exec()).kvs[0]!;
    const token: FenceToken = { key, revision: kv.create_revision };
    resign = () => campaign.resign();
    server = new ClusterOpsServer(client, emit);
    server.start(token);
    mirror = new TransfersMirror(client, emit);
    await mirror.start();
  });
  afterAll(async () => {
    await server?.stop();
    await mirror?.stop();
    client?.close();
    await etcd?.stop();
  });

  it('replicate_shard: answered ok, the target added Initializing with the shard\'s new target, the transfer recorded (and mirrored) until the target is Active', async () => {
    expect(await askController(client, shardReq({ kind: 'replicate_shard', shard: 0, from: 1, to: 3, method: null }), 10_000)).toEqual({ ok: true });
    expect(await assign(0)).toEqual({ epoch: 2, target: 3, replicas: [{ node: 1, state: 'Active' }, { node: 2, state: 'Active' }, { node: 3, state: 'Initializing' }] });
    expect(await transfers()).toEqual(['/quiver/transfers/7/0/1-3']);
    const mirrored = await until('the transfer in the mirror', async () => {
      const last = events.filter((e): e is Extract<FromEtcdThread, { type: 'transfers' }> => e.type === 'transfers').pop();
      return last !== undefined && last.transfers.length === 1 ? last.transfers : undefined;
    });
    expect(mirrored).toEqual([{ collectionId: 7, shard: 0, from: 1, to: 3, sync: true, method: null } satisfies { collectionId: number } & Transfer]);
    // The request and its result are gone once answered.
    expect(await client.getAll().prefix('/quiver/requests/').keys()).toEqual([]);
    await activate(0, 3);
    await until('the replication to end', async () => ((await transfers()).length === 0 ? true : undefined));
    expect((await assign(0)).replicas.map((r) => r.node)).toEqual([1, 2, 3]);
  });

  it('move_shard keeps the source until the target is Active, then drops it', async () => {
    expect(await askController(client, shardReq({ kind: 'move_shard', shard: 1, from: 2, to: 4, method: 'snapshot' }), 10_000)).toEqual({ ok: true });
    expect((await assign(1)).replicas).toEqual([{ node: 2, state: 'Active' }, { node: 4, state: 'Initializing' }]);
    // Another assignment change (the control loop's) does not finish it while the target catches up.
    const a = await assign(1);
    await put(1, { ...a, epoch: a.epoch + 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect((await assign(1)).replicas.map((r) => r.node)).toEqual([2, 4]);
    await activate(1, 4);
    await until('the source to be dropped', async () => ((await assign(1)).replicas.length === 1 ? true : undefined));
    expect(await assign(1)).toMatchObject({ replicas: [{ node: 4, state: 'Active' }], target: 1 });
    expect(await transfers()).toEqual([]);
  });

  it('refusals come back as results with their code and message, and change nothing', async () => {
    const before = await assign(0);
    expect(await askController(client, shardReq({ kind: 'drop_replica', shard: 1, peer: 4 }), 10_000)).toEqual({
      ok: false,
      code: 'BadInput',
      message: 'Cannot drop the replica of shard 1 on peer 4: no other Active replica of that shard would remain',
    });
    expect(await askController(client, shardReq({ kind: 'move_shard', shard: 3, from: 1, to: 2, method: null }), 10_000)).toEqual({ ok: false, code: 'NotFound', message: 'Shard 3 of collection c does not exist (it has 2)' });
    expect(await askController(client, { type: 'remove_peer', peer: 99, force: false }, 10_000)).toEqual({ ok: false, code: 'NotFound', message: 'Peer 99 does not exist' });
    expect(await assign(0)).toEqual(before);
  });

  it('removing a peer with force drops its replicas at once; without force moves them away first, then deletes its node key', async () => {
    expect(await askController(client, { type: 'remove_peer', peer: 2, force: true }, 10_000)).toEqual({ ok: true });
    expect((await assign(0)).replicas.map((r) => r.node)).toEqual([1, 3]);
    expect(await client.get('/quiver/nodes/2').string()).toBeNull();
    // Node 4 alone holds shard 1: drained to another live node (1 or 3) before it goes.
    expect(await askController(client, { type: 'remove_peer', peer: 4, force: true }, 10_000)).toEqual({ ok: false, code: 'BadInput', message: 'Peer 4 holds the only replica of shard 1 of collection id 7; replicate it elsewhere first' });
    expect(await askController(client, { type: 'remove_peer', peer: 4, force: false }, 10_000)).toEqual({ ok: true });
    const s1 = await assign(1);
    expect(s1.replicas).toHaveLength(2);
    const target = s1.replicas[1]!.node;
    expect([1, 3]).toContain(target);
    expect(await client.get('/quiver/nodes/4').string()).not.toBeNull();
    await activate(1, target);
    await until('node 4 drained and removed', async () => ((await client.get('/quiver/nodes/4').string()) === null ? true : undefined));
    expect((await assign(1)).replicas).toEqual([{ node: target, state: 'Active' }]);
    expect(await client.getAll().prefix('/quiver/removing/').keys()).toEqual([]);
    // Both ids are remembered as removed: they may not register again (membership.ts).
    expect((await client.getAll().prefix('/quiver/removed/').keys()).sort()).toEqual(['/quiver/removed/2', '/quiver/removed/4']);
  });

  it('a drain move whose target died (ended by the control loop) is started again to another live node; the peer is removed once that one is Active', async () => {
    await client.put('/quiver/nodes/5').value(JSON.stringify({ id: 5, advertise: '127.0.0.1:5' })).exec();
    expect(await askController(client, { type: 'remove_peer', peer: 3, force: false }, 10_000)).toEqual({ ok: true });
    expect((await assign(0)).replicas).toEqual([{ node: 1, state: 'Active' }, { node: 3, state: 'Active' }, { node: 5, state: 'Initializing' }]);
    expect(await transfers()).toEqual(['/quiver/transfers/7/0/3-5']);
    // Node 5 dies, node 6 joins; the control loop drops the dead target and gives back its count.
    await client.delete().key('/quiver/nodes/5').exec();
    await client.put('/quiver/nodes/6').value(JSON.stringify({ id: 6, advertise: '127.0.0.1:6' })).exec();
    const a = await assign(0);
    await put(0, { ...a, epoch: a.epoch + 1, target: a.target! - 1, replicas: a.replicas.filter((r) => r.node !== 5) });
    await until('the drain moved to node 6', async () => ((await transfers()).join() === '/quiver/transfers/7/0/3-6' ? true : undefined));
    expect((await assign(0)).replicas).toEqual([{ node: 1, state: 'Active' }, { node: 3, state: 'Active' }, { node: 6, state: 'Initializing' }]);
    expect(await client.get('/quiver/nodes/3').string()).not.toBeNull();
    await activate(0, 6);
    await until('node 3 drained and removed', async () => ((await client.get('/quiver/nodes/3').string()) === null ? true : undefined));
    expect(await assign(0)).toMatchObject({ replicas: [{ node: 1, state: 'Active' }, { node: 6, state: 'Active' }], target: 2 });
    expect(await client.get('/quiver/removed/3').string()).not.toBeNull();
  });

  it('a deposed controller serves nothing: the asker gets a bounded ShardUnavailable and nothing is written', async () => {
    await resign();
    const before = await assign(0);
    const r = await askController(client, shardReq({ kind: 'drop_replica', shard: 0, peer: 6 }), 1500);
    expect(r).toEqual({ ok: false, code: 'ShardUnavailable', message: "No answer from the cluster controller within 1500 ms; the operation may still be applied (check the collection's cluster info)" });
    // Nor does it answer a refusal it decided on what it read (peer 3 holds no replica now).
    expect(await askController(client, shardReq({ kind: 'drop_replica', shard: 0, peer: 3 }), 1500)).toMatchObject({ ok: false, code: 'ShardUnavailable' });
    expect(await assign(0)).toEqual(before);
    expect(await client.getAll().prefix('/quiver/requests/').keys()).toEqual([]);
  });
});
