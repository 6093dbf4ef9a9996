// Nodes that die or leave in the middle of the control plane's work, on three Quiver nodes (1
// worker each, 15 s leases so a paused node stays live while the test acts, 2 s dead grace) on
// one etcd and one NATS server, all started by PID:
// a move whose target is killed -9 before it is Active ends as a failed transfer (the source
// stays, the target's replica goes, no replacement and no transfer left); a peer removed with
// DELETE /cluster/peer leaves at once, refuses to join again with its old data dir (exit code 2,
// naming its removal), and joins as a new peer from an empty one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { etcdMissing } from '../../helpers/etcd.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';
import { startThreeNodes, until, type ThreeNodes } from '../../helpers/three-nodes.js';

const C = 'moving';
const N = 30;

describe.skipIf(etcdMissing() !== null)('three nodes: a transfer target that dies, a removed peer that restarts', () => {
  let cluster: ThreeNodes;
  let id = 0;
  const extraDirs: string[] = [];
  /** Servers started by hand (a removed node's restart): killed at the end if still running. */
  const strays: TestServer[] = [];

  /** The replicas of shard 0 as "peer:state". */
  const replicas = async (): Promise<string[]> => (await cluster.assignment(id, 0))!.replicas.map((r) => `${r.node}:${r.state}`);
  const transfers = async (n: TestServer): Promise<unknown[]> => (await call(n.url, 'GET', `/collections/${C}/cluster`)).body.result.shard_transfers as unknown[];
  const controllerOf = async (n: TestServer): Promise<number> => Number((await call(n.url, 'GET', '/cluster')).body.result.raft_info.leader);
  const count = async (n: TestServer): Promise<number> => (await call(n.url, 'POST', `/collections/${C}/points/count?consistency=all`, { exact: true })).body.result.count as number;

  /** Node i restarted on its data dir (its old peer id) after its removal: it must exit with 2. Its output. */
  const restartRefused = async (i: number): Promise<string[]> => {
    let logs: string[] = [];
    let code: number | null = null;
    try {
      const again = await startServer({ dataDir: cluster.dirs[i]!, shards: 1, env: cluster.envOf(i), waitReady: false });
      strays.push(again);
      logs = again.logs;
      code = await until('the restarted removed node to exit', async () => (again.proc.exitCode === null ? undefined : again.proc.exitCode));
    } catch (e) {
      // It may exit before its ports were read: the error carries its output, a line each.
      logs = String(e).split('\n');
      code = 2;
      expect(String(e)).toMatch(/server exited with 2/);
    }
    expect(code).toBe(2);
    // 'exit' can come before the last lines of its output are read.
    await until('its refusal in its output', async () => (logs.some((l) => l.includes('was removed from the cluster')) ? true : undefined), 10_000, 50);
    return logs;
  };

  beforeAll(async () => {
    cluster = await startThreeNodes({ leaseSeconds: 15 });
    id = await cluster.oneReplicaCollection(C, N);
  }, 120_000);

  afterAll(async () => {
    for (const s of strays) await s.stop('SIGKILL');
    await cluster?.close();
    for (const d of extraDirs) removeDir(d);
  });

  it('move_shard whose target is killed -9 before it is Active: the source stays alone, the target replica and the transfer go, no replacement is placed', { timeout: 150_000 }, async () => {
    const { nodes, ids } = cluster;
    const before = (await cluster.assignment(id, 0))!;
    const src = before.replicas[0]!.node;
    // The target: not the controller, so the move is settled by the same controller throughout.
    const controller = await controllerOf(nodes[ids.indexOf(src)]!);
    const ti = ids.findIndex((n) => n !== src && n !== controller);
    const to = ids[ti]!;
    const target = nodes[ti]!;
    const live = nodes.filter((n) => n !== target);
    // Paused first (within its lease: still live), so its replica cannot catch up before the kill.
    target.proc.kill('SIGSTOP');
    expect(await new QdrantClient({ url: nodes[ids.indexOf(src)]!.url }).updateCollectionCluster(C, { move_shard: { shard_id: 0, from_peer_id: src, to_peer_id: to } })).toBe(true);
    expect(await replicas()).toEqual([`${src}:Active`, `${to}:Initializing`]);
    for (const n of live) await until('the move shown in flight on every live node', async () => ((await transfers(n)).length === 1 ? true : undefined));
    expect(await transfers(live[0]!)).toEqual([{ shard_id: 0, from: src, to, sync: false }]);
    await target.stop('SIGKILL');

    let seen: string[] = [];
    const ended = await until(
      () => `the move to end with ${src} alone (last seen ${JSON.stringify(seen)})`,
      async () => {
        const a = (await cluster.assignment(id, 0))!;
        seen = a.replicas.map((r) => `${r.node}:${r.state}`);
        return seen.join() === `${src}:Active` ? a : undefined;
      },
      // The kill is seen once the 15 s lease lapses.
      90_000,
    );
    // The shard keeps the one replica it had: the move's extra one is given back.
    expect(ended.target).toBe(1);
    for (const n of live) await until('the transfer gone from every live node', async () => ((await transfers(n)).length === 0 ? true : undefined));
    await until('etcd to hold no transfer', async () => ((await cluster.kv.getAll().prefix(`/quiver/transfers/${id}/`).keys()).length === 0 ? true : undefined));
    // Past the dead grace (2 s) and several controller runs (every second): nothing is added.
    // Asserting that nothing happens needs time to pass; the bound is the grace plus margin.
    await new Promise((r) => setTimeout(r, 4000));
    expect(await replicas()).toEqual([`${src}:Active`]);
    expect((await cluster.assignment(id, 0))!.epoch).toBe(ended.epoch);
    for (const n of live) expect(await count(n)).toBe(N);

    // The killed node comes back: it gets no replica of the shard back.
    await cluster.start(ti);
    await until('the restarted node registered', async () => ((await cluster.kv.get(`/quiver/nodes/${to}`).string()) !== null ? true : undefined));
    // Registered is not yet serving: its mirrors of the assignments and peers may still be filling.
    const through = await until('a count through the restarted node', async () => {
      const r = await call(cluster.nodes[ti]!.url, 'POST', `/collections/${C}/points/count?consistency=all`, { exact: true });
      return r.status === 200 ? (r.body.result.count as number) : undefined;
    });
    expect(through).toBe(N);
    expect(await replicas()).toEqual([`${src}:Active`]);
  });

  it('a removed peer leaves at once, refuses to rejoin with its old data dir (exit code 2, naming its removal), and joins as a new peer from an empty one', { timeout: 180_000 }, async () => {
    const { nodes, ids } = cluster;
    // The node holding the shard: its removal drains it first (the replica moves away).
    const holder = (await cluster.assignment(id, 0))!.replicas[0]!.node;
    const ri = ids.indexOf(holder);
    const removed = nodes[ri]!;
    const asker = nodes[(ri + 1) % 3]!;
    const r = await call(asker.url, 'DELETE', `/cluster/peer/${holder}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await until('the removed peer to leave the peers', async () => (String(holder) in (await call(asker.url, 'GET', '/cluster')).body.result.peers ? undefined : true), 120_000);
    expect(await replicas()).not.toContain(`${holder}:Active`);
    expect(await cluster.get(`removed/${holder}`)).toMatchObject({ at: expect.any(String) });
    // Still running, it gives up its lease and refuses data, naming its removal.
    const refused = await until('the removed node to refuse data', async () => {
      const res = await call(removed.url, 'POST', `/collections/${C}/points/count`, { exact: true });
      return res.status === 503 && /removed/.test(String(res.body.status?.error)) ? res : undefined;
    });
    expect(refused.body.status.error).toMatch(new RegExp(`^This node is not serving: this node \\(peer ${holder}\\) was removed from the cluster \\(DELETE /cluster/peer/${holder} at .+\\) and cannot rejoin with its old state`));
    for (const n of nodes.filter((x) => x !== removed)) await until('the others to answer every point', async () => ((await count(n)) === N ? true : undefined));

    // Restarted on its data dir (its old id): it refuses to join and exits with code 2.
    await removed.stop('SIGTERM');
    const logs = await restartRefused(ri);
    const why = `this node (peer ${holder}) was removed from the cluster`;
    expect(logs.some((l) => l.startsWith(`quiver: ${why}`) && l.includes('start it on an empty data dir'))).toBe(true);
    expect(await cluster.kv.get(`/quiver/nodes/${holder}`).string()).toBeNull();

    // On an empty data dir the machine joins as a new peer, and holds the collection's data.
    const fresh = tempDataDir();
    extraDirs.push(fresh);
    const newcomer = await startServer({ dataDir: fresh, shards: 1, env: cluster.envOf(ri) });
    cluster.nodes[ri] = newcomer;
    const newId = Number((await call(newcomer.url, 'GET', '/cluster')).body.result.peer_id);
    cluster.ids[ri] = newId;
    cluster.dirs[ri] = fresh;
    expect(newId).not.toBe(holder);
    await until('the new peer in the peers', async () => (String(newId) in (await call(asker.url, 'GET', '/cluster')).body.result.peers ? true : undefined));
    expect(await until('the new peer to answer every point', async () => ((await count(newcomer)) === N ? N : undefined))).toBe(N);
  });

  it('a node killed -9, then removed while down: its replica is drained from the log, and restarted it refuses to rejoin with its old replicas', { timeout: 180_000 }, async () => {
    const { nodes, ids } = cluster;
    const holder = (await cluster.assignment(id, 0))!.replicas[0]!.node;
    const ki = ids.indexOf(holder);
    const others = nodes.filter((_, i) => i !== ki);
    await nodes[ki]!.stop('SIGKILL');
    // It may have been the controller: the next one is elected once its 15 s lease lapses.
    const r = await call(others[0]!.url, 'DELETE', `/cluster/peer/${holder}?timeout=60`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Drained although its source is down: the new replica catches up from the shard's log.
    let seen: string[] = [];
    await until(() => `the shard to leave ${holder} (last seen ${JSON.stringify(seen)})`, async () => {
      seen = await replicas();
      return seen.length === 1 && !seen[0]!.startsWith(`${holder}:`) && seen[0]!.endsWith(':Active') ? true : undefined;
    }, 120_000);
    await until('the removal to complete', async () => ((await cluster.get(`removed/${holder}`)) !== null ? true : undefined));
    for (const n of others) await until('every point through the others', async () => ((await count(n)) === N ? true : undefined));
    const logs = await restartRefused(ki);
    expect(logs.some((l) => l.includes(`this node (peer ${holder}) was removed from the cluster`))).toBe(true);
    expect(await replicas()).not.toContain(`${holder}:Partial`);
    expect((await call(others[0]!.url, 'GET', '/cluster')).body.result.peers).not.toHaveProperty(String(holder));
  });
});
