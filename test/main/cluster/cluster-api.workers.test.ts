// Qdrant's cluster API on three Quiver nodes (1 worker each, 2 s leases, 2 s dead grace) on one
// etcd and one NATS server, through the official clients: every node's collection cluster info
// (REST and gRPC) agrees with the assignment in etcd; replicate_shard, move_shard (the moved
// shard arrives with its points) and drop_replica change it as asked; bad requests answer
// 400/404 with their reason; DELETE /cluster/peer drains a node, then removes it. A single node
// refuses the operations as Qdrant does without distributed mode.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { ConnectErrorCode as Code } from '@qdrant/js-client-grpc';
import { Etcd3 } from 'etcd3';
import type { Assignment } from '../../../src/shared/cluster/cluster-ops.js';
import { expectDataError } from '../../helpers/auth.js';
import { etcdMissing } from '../../helpers/etcd.js';
import { failure, grpcClient } from '../../helpers/grpc.js';
import { call, removeDir, startServer, type TestServer } from '../../helpers/server.js';
import { startThreeNodes, until, type ThreeNodes } from '../../helpers/three-nodes.js';

interface Info {
  peer_id: number;
  shard_count: number;
  local_shards: { shard_id: number; points_count: number; state: string }[];
  remote_shards: { shard_id: number; peer_id: number; state: string }[];
  shard_transfers: { shard_id: number; from: number; to: number; sync: boolean }[];
}

/** Every replica a node's info names, as "shard@peer:state", sorted. */
function replicasOf(info: Info): string[] {
  return [...info.local_shards.map((s) => `${s.shard_id}@${info.peer_id}:${s.state}`), ...info.remote_shards.map((s) => `${s.shard_id}@${s.peer_id}:${s.state}`)].sort();
}

const GRPC_STATES = ['Active', 'Dead', 'Partial', 'Initializing'];

describe.skipIf(etcdMissing() !== null)('cluster API on three nodes', () => {
  let cluster: ThreeNodes;
  let kv: Etcd3;
  let nodes: TestServer[] = [];
  let ids: number[] = [];
  let collectionId = 0;
  const C = 'api';

  const assignment = async (shard: number): Promise<Assignment> => JSON.parse((await kv.get(`/quiver/assign/${collectionId}/${shard}`).string())!) as Assignment;
  const info = async (n: TestServer): Promise<Info> => (await new QdrantClient({ url: n.url }).collectionClusterInfo(C)) as Info;
  /** The replicas of shard `s` as "peer:state", in assignment order. */
  const replicas = async (s: number): Promise<string[]> => (await assignment(s)).replicas.map((r) => `${r.node}:${r.state}`);
  const nodeOf = (id: number): TestServer => nodes[ids.indexOf(id)]!;
  /** The points held by the nodes' local replicas, over the nodes still in the cluster. */
  const total = async (among: TestServer[] = nodes): Promise<number> => (await Promise.all(among.map(info))).flatMap((r) => r.local_shards).reduce((n, s) => n + s.points_count, 0);

  beforeAll(async () => {
    // A 15 s lease: the abort test pauses a node and needs it live meanwhile (nothing here kills one).
    cluster = await startThreeNodes({ leaseSeconds: 15 });
    ({ kv, nodes, ids } = cluster);
    const a = new QdrantClient({ url: nodes[0]!.url });
    await a.createCollection(C, { vectors: { size: 2, distance: 'Dot' }, shard_number: 2, replication_factor: 1 });
    collectionId = (JSON.parse((await kv.get(`/quiver/catalog/${C}`).string())!) as { id: number }).id;
    for (const n of nodes) await until('the collection on every node', async () => ((await call(n.url, 'GET', `/collections/${C}/exists`)).body.result.exists === true ? true : undefined));
    await until('both shards assigned', async () => ((await kv.getAll().prefix(`/quiver/assign/${collectionId}/`).keys()).length === 2 ? true : undefined));
    // wait=false: acknowledged once the shards' logs hold it; each replica node applies it from there.
    await a.upsert(C, { wait: false, points: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, vector: [1, i / 40] })) });
    await until('the 40 points applied by the replica nodes', async () => ((await total()) === 40 ? true : undefined));
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('every node answers the same replicas over REST and gRPC, as the assignment has them, each naming itself as peer_id', { timeout: 90_000 }, async () => {
    const want = (await Promise.all([0, 1].map(async (s) => (await assignment(s)).replicas.map((r) => `${s}@${r.node}:${r.state}`)))).flat().sort();
    expect(want).toHaveLength(2);
    for (const [i, n] of nodes.entries()) {
      const r = await info(n);
      expect(r.peer_id).toBe(ids[i]);
      expect(r.shard_count).toBe(2);
      expect(replicasOf(r)).toEqual(want);
      expect(r.shard_transfers).toEqual([]);
      const g = await grpcClient(n).api('collections').collectionClusterInfo({ collectionName: C });
      expect(Number(g.peerId)).toBe(ids[i]);
      expect(Number(g.shardCount)).toBe(2);
      const viaGrpc = [...g.localShards.map((s) => `${s.shardId}@${ids[i]}:${GRPC_STATES[s.state]}`), ...g.remoteShards.map((s) => `${s.shardId}@${Number(s.peerId)}:${GRPC_STATES[s.state]}`)].sort();
      expect(viaGrpc).toEqual(want);
      expect(g.localShards.map((s) => [s.shardId, Number(s.pointsCount)])).toEqual(r.local_shards.map((s) => [s.shard_id, s.points_count]));
    }
    // The local shards hold the points written: 40 in all.
    expect(await total()).toBe(40);
  });

  it('replicate_shard adds a replica on the target, which becomes Active with the shard\'s points; drop_replica removes it', { timeout: 120_000 }, async () => {
    const [src] = (await assignment(0)).replicas.map((r) => r.node) as [number];
    const to = ids.find((id) => id !== src)!;
    const client = new QdrantClient({ url: nodeOf(to).url });
    expect(await client.updateCollectionCluster(C, { replicate_shard: { shard_id: 0, from_peer_id: src, to_peer_id: to } })).toBe(true);
    let seen: string[] = [];
    await until(() => `shard 0 Active on ${src} and ${to} (last seen ${JSON.stringify(seen)})`, async () => {
      const r = (seen = await replicas(0));
      return r.length === 2 && r.includes(`${src}:Active`) && r.includes(`${to}:Active`) ? true : undefined;
    });
    // Every node's info shows both, and the transfer has ended.
    for (const n of nodes) {
      await until('every node to show the new replica', async () => {
        const r = await info(n);
        return replicasOf(r).filter((x) => x.startsWith('0@')).length === 2 && r.shard_transfers.length === 0 ? true : undefined;
      });
    }
    const srcPoints = (await info(nodeOf(src))).local_shards.find((s) => s.shard_id === 0)!.points_count;
    await until('the new replica to hold the shard\'s points', async () => ((await info(nodeOf(to))).local_shards.find((s) => s.shard_id === 0)?.points_count === srcPoints ? true : undefined));
    // It stays: the control loop keeps what the operator chose.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await replicas(0)).sort()).toEqual([`${src}:Active`, `${to}:Active`].sort());

    expect(await client.updateCollectionCluster(C, { drop_replica: { shard_id: 0, peer_id: src } })).toBe(true);
    expect(await replicas(0)).toEqual([`${to}:Active`]);
    await until('every node to show one replica of shard 0', async () => {
      for (const n of nodes) if (replicasOf(await info(n)).filter((x) => x.startsWith('0@')).join() !== `0@${to}:Active`) return undefined;
      return true;
    });
  });

  it('move_shard (over gRPC) makes the target Active before the source goes; the moved shard keeps its points', { timeout: 120_000 }, async () => {
    const [from] = (await assignment(1)).replicas.map((r) => r.node) as [number];
    const to = ids.find((id) => id !== from)!;
    const before = (await info(nodeOf(from))).local_shards.find((s) => s.shard_id === 1)!.points_count;
    expect(before).toBeGreaterThan(0);
    const r = await grpcClient(nodeOf(from)).api('collections').updateCollectionClusterSetup({
      collectionName: C,
      operation: { case: 'moveShard', value: { shardId: 1, fromPeerId: BigInt(from), toPeerId: BigInt(to) } },
    });
    expect(r.result).toBe(true);
    // Never without an Active replica: the source stays until the target is Active.
    let seen: string[] = [];
    let everWithoutActive = false;
    await until(() => `shard 1 only on ${to} (last seen ${JSON.stringify(seen)})`, async () => {
      const now = (seen = await replicas(1));
      if (!now.some((x) => x.endsWith(':Active'))) everWithoutActive = true;
      return now.length === 1 && now[0] === `${to}:Active` ? true : undefined;
    });
    expect(everWithoutActive).toBe(false);
    await until('the moved shard to hold its points on the target', async () => ((await info(nodeOf(to))).local_shards.find((s) => s.shard_id === 1)?.points_count === before ? true : undefined));
    // Each node lists its local shards from its own mirror of etcd, which the source's watch updates.
    let sum = 0;
    await until(() => `the points counted once over the nodes (last ${sum})`, async () => ((sum = await total()) === 40 ? true : undefined), 15_000);
  });

  it('abort_transfer ends a replication in flight (its target paused, so it cannot catch up): the transfer gone and the extra replica dropped, over REST and gRPC', { timeout: 120_000 }, async () => {
    const [src] = (await assignment(0)).replicas.map((r) => r.node) as [number];
    const before = await assignment(0);
    // The target: neither the source nor the controller (a paused controller would answer nothing).
    const controller = Number((await call(nodeOf(src).url, 'GET', '/cluster')).body.result.raft_info.leader);
    const to = ids.find((id) => id !== src && id !== controller)!;
    const target = nodeOf(to);
    const live = nodes.filter((n) => n !== target);
    const asker = new QdrantClient({ url: nodeOf(src).url });
    const g = grpcClient(live.find((n) => n !== nodeOf(src))!).api('collections');
    const transfersOf = async (n: TestServer): Promise<Info['shard_transfers']> => (await info(n)).shard_transfers;
    const viaRest = async (op: 'replicate' | 'abort'): Promise<boolean> =>
      asker.updateCollectionCluster(C, op === 'replicate' ? { replicate_shard: { shard_id: 0, from_peer_id: src, to_peer_id: to } } : { abort_transfer: { shard_id: 0, from_peer_id: src, to_peer_id: to } });
    const viaGrpc = async (op: 'replicate' | 'abort'): Promise<boolean> => {
      const value = { shardId: 0, fromPeerId: BigInt(src), toPeerId: BigInt(to) };
      const r = await g.updateCollectionClusterSetup({ collectionName: C, operation: op === 'replicate' ? { case: 'replicateShard', value } : { case: 'abortTransfer', value } });
      return r.result;
    };
    for (const [how, run] of [['REST', viaRest], ['gRPC', viaGrpc]] as const) {
      // Paused well within its lease (15 s here): still live, so the transfer stays in flight.
      target.proc.kill('SIGSTOP');
      try {
        expect(await run('replicate'), how).toBe(true);
        expect(await replicas(0)).toEqual([`${src}:Active`, `${to}:Initializing`]);
        for (const n of live) await until(`${how}: the transfer shown in flight`, async () => ((await transfersOf(n)).length === 1 ? true : undefined));
        expect(await transfersOf(live[0]!)).toEqual([{ shard_id: 0, from: src, to, sync: true }]);
        expect(await run('abort'), how).toBe(true);
        // The target never served: it is dropped, and the shard keeps what it had.
        expect(await replicas(0)).toEqual([`${src}:Active`]);
        expect((await assignment(0)).target ?? 1).toBe(before.target ?? 1);
        for (const n of live) await until(`${how}: the transfer gone`, async () => ((await transfersOf(n)).length === 0 ? true : undefined));
        // A second abort finds nothing: 404 / NOT_FOUND naming the transfer.
        const none = `No transfer of shard 0 of collection api from peer ${src} to peer ${to}`;
        if (how === 'REST') expectDataError(await call(nodeOf(src).url, 'POST', `/collections/${C}/cluster`, { abort_transfer: { shard_id: 0, from_peer_id: src, to_peer_id: to } }), 404, none);
        else {
          const f = await failure(run('abort'));
          expect(f.code).toBe(Code.NotFound);
          expect(f.message).toBe(none);
        }
      } finally {
        target.proc.kill('SIGCONT');
      }
      await until(`${how}: the resumed target to show one replica of shard 0 and no transfer`, async () => {
        const r = await info(target);
        return replicasOf(r).filter((x) => x.startsWith('0@')).join() === `0@${src}:Active` && r.shard_transfers.length === 0 ? true : undefined;
      });
    }
    expect(await total()).toBe(40);
  });

  it('bad operations answer 400 or 404 with the reason, over REST and gRPC', { timeout: 60_000 }, async () => {
    const n = nodes[0]!;
    const [holder] = (await assignment(0)).replicas.map((r) => r.node) as [number];
    const other = ids.find((id) => id !== holder)!;
    const post = (body: unknown) => call(n.url, 'POST', `/collections/${C}/cluster`, body);
    expectDataError(await post({ move_shard: { shard_id: 9, from_peer_id: holder, to_peer_id: other } }), 404, 'Shard 9 of collection api does not exist (it has 2)');
    expectDataError(await post({ replicate_shard: { shard_id: 0, from_peer_id: holder, to_peer_id: 987654 } }), 404, 'Peer 987654 does not exist (no live node has that id)');
    expectDataError(await post({ move_shard: { shard_id: 0, from_peer_id: holder, to_peer_id: holder } }), 400, `Source and target peers must differ: both are ${holder}`);
    expectDataError(await post({ replicate_shard: { shard_id: 0, from_peer_id: other, to_peer_id: holder } }), 400, `Peer ${other} has no replica of shard 0 of collection api`);
    expectDataError(await post({ drop_replica: { shard_id: 0, peer_id: holder } }), 400, `Cannot drop the replica of shard 0 on peer ${holder}: no other Active replica of that shard would remain`);
    expectDataError(await post({ abort_transfer: { shard_id: 0, from_peer_id: holder, to_peer_id: other } }), 404, `No transfer of shard 0 of collection api from peer ${holder} to peer ${other}`);
    expectDataError(await post({}), 400, 'The body must name exactly one cluster operation (move_shard, replicate_shard, drop_replica, abort_transfer); it names none');
    expectDataError(await post({ create_sharding_key: { shard_key: 'x' } }), 400, 'Unsupported cluster operation: create_sharding_key (Quiver serves move_shard, replicate_shard, drop_replica, abort_transfer)');
    const neg = await post({ drop_replica: { shard_id: -1, peer_id: holder } });
    expect(neg.status).toBe(400);
    expect(neg.body.status.error).toMatch(/shard_id/);
    expectDataError(await call(n.url, 'POST', '/collections/nope/cluster', { drop_replica: { shard_id: 0, peer_id: holder } }), 404, 'Collection not found: nope');
    expectDataError(await call(n.url, 'DELETE', '/cluster/peer/987654'), 404, 'Peer 987654 does not exist');
    // Nothing changed.
    expect(await replicas(0)).toEqual([`${holder}:Active`]);

    const g = grpcClient(n).api('collections');
    const f = await failure(g.updateCollectionClusterSetup({ collectionName: C, operation: { case: 'dropReplica', value: { shardId: 0, peerId: BigInt(holder) } } }));
    expect(f.code).toBe(Code.InvalidArgument);
    expect(f.message).toBe(`Cannot drop the replica of shard 0 on peer ${holder}: no other Active replica of that shard would remain`);
    const none = await failure(g.updateCollectionClusterSetup({ collectionName: C, operation: { case: 'moveShard', value: { shardId: 5, fromPeerId: BigInt(holder), toPeerId: BigInt(other) } } }));
    expect(none.code).toBe(Code.NotFound);
  });

  it('DELETE /cluster/peer drains a node (its replicas move away first), then it leaves the peers', { timeout: 150_000 }, async () => {
    const held = async (id: number): Promise<number> => {
      let k = 0;
      for (const s of [0, 1]) k += (await assignment(s)).replicas.filter((r) => r.node === id).length;
      return k;
    };
    // The node holding most replicas, so there is something to drain.
    const counts = await Promise.all(ids.map(held));
    const leaving = ids[counts.indexOf(Math.max(...counts))]!;
    expect(await held(leaving)).toBeGreaterThan(0);
    const asker = nodes[ids.findIndex((id) => id !== leaving)]!;
    const r = await call(asker.url, 'DELETE', `/cluster/peer/${leaving}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toBe(true);
    let seen: string[][] = [];
    await until(() => `node ${leaving} to hold no replica (last seen ${JSON.stringify(seen)})`, async () => {
      seen = await Promise.all([0, 1].map(replicas));
      return (await held(leaving)) === 0 ? true : undefined;
    }, 120_000);
    for (const s of [0, 1]) expect((await replicas(s)).every((x) => x.endsWith(':Active'))).toBe(true);
    await until('the drained node to leave the peers', async () => {
      const peers = (await call(asker.url, 'GET', '/cluster')).body.result.peers as Record<string, unknown>;
      return String(leaving) in peers ? undefined : true;
    });
    // The data is all there, on the nodes that stay (a replica is Active once within 100 entries of
    // the log's end, so its points may still be arriving; each node's mirror may trail etcd).
    let sum = 0;
    await until(() => `40 points on the nodes that stay (last ${sum})`, async () => ((sum = await total(nodes.filter((n) => n !== nodeOf(leaving)))) === 40 ? true : undefined), 15_000);
  });
});

describe('cluster operations on a single node', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ shards: 1 });
    await call(server.url, 'PUT', '/collections/one', { vectors: { size: 2, distance: 'Dot' } });
  });
  afterAll(async () => {
    await server?.stop();
    removeDir(server.dataDir);
  });

  it("answers 400 'Distributed mode disabled' as Qdrant does, over REST and gRPC; a bad body is still named first", async () => {
    expectDataError(await call(server.url, 'POST', '/collections/one/cluster', { drop_replica: { shard_id: 0, peer_id: 1 } }), 400, 'Bad request: Distributed mode disabled.');
    expectDataError(await call(server.url, 'DELETE', '/cluster/peer/1'), 400, 'Bad request: Distributed mode disabled.');
    expectDataError(await call(server.url, 'POST', '/collections/one/cluster', {}), 400, 'The body must name exactly one cluster operation (move_shard, replicate_shard, drop_replica, abort_transfer); it names none');
    const f = await failure(grpcClient(server).api('collections').updateCollectionClusterSetup({ collectionName: 'one', operation: { case: 'dropReplica', value: { shardId: 0, peerId: 1n } } }));
    expect(f.code).toBe(Code.InvalidArgument);
    expect(f.message).toBe('Bad request: Distributed mode disabled.');
    // The info keeps its single-node answer.
    const info = await call(server.url, 'GET', '/collections/one/cluster');
    expect(info.body.result).toMatchObject({ peer_id: 0, shard_count: 1, remote_shards: [], shard_transfers: [] });
  });
});
