// The control plane joined to the data, with three Quiver nodes (2 workers each, 2 s leases, a
// 2 s dead grace) on one etcd and one NATS server, all started by PID: the etcd catalog mirrored
// into every node with cluster-wide ids, one winner among concurrent creates of a name, deletes
// everywhere, assignments on distinct nodes, writes applied by every replica node, and the
// replica lifecycle when a node is killed -9 (Dead, a replacement after the grace, the node back
// Partial then Active, its catalog caught up; a node paused past its lease likewise), and config
// changes (PATCH, field indexes) reaching every node, a raised replication_factor placing more.
// A create answers once every node has applied it (a write through another node finds it).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { Etcd3 } from 'etcd3';
import { jetstreamManager } from '@nats-io/jetstream';
import { streamName } from '../../../src/shared/log-entry.js';
import type { Assignment, NodeStatus } from '../../../src/shared/cluster/assignments.js';
import { call, type TestServer } from '../../helpers/server.js';
import { etcdMissing } from '../../helpers/etcd.js';
import type { NatsCluster } from '../../helpers/nats.js';
import { startThreeNodes, until, type ThreeNodes } from '../../helpers/three-nodes.js';

describe.skipIf(etcdMissing() !== null)('three nodes: catalog, placement and replicas', () => {
  let cluster: ThreeNodes;
  let kv: Etcd3;
  let nats: NatsCluster;
  let nodes: TestServer[] = [];
  let ids: number[] = [];
  const start = (i: number): Promise<TestServer> => cluster.start(i);
  const get = <T>(key: string): Promise<T | null> => cluster.get<T>(key);
  const catalogId = (name: string): Promise<number> => cluster.catalogId(name);
  const assignment = (id: number, shard: number): Promise<Assignment | null> => cluster.assignment(id, shard);
  const names = async (n: TestServer): Promise<string[]> => {
    const r = await call(n.url, 'GET', '/collections');
    return (r.body.result.collections as { name: string }[]).map((c) => c.name).sort();
  };
  const lastSeq = async (id: number, shard: number): Promise<number> => {
    const nc = await nats.connect();
    try {
      return (await (await jetstreamManager(nc)).streams.info(streamName(id, shard))).state.last_seq;
    } finally {
      await nc.close();
    }
  };

  beforeAll(async () => {
    // Two workers: replication_factor counts nodes, so each node still keeps one copy per shard.
    cluster = await startThreeNodes({ workers: 2 });
    ({ kv, nats, nodes, ids } = cluster);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('a collection created on A appears on B and C with the same cluster-wide id; its shards are placed on distinct nodes', { timeout: 90_000 }, async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    await new QdrantClient({ url: a.url }).createCollection('docs', { vectors: { size: 3, distance: 'Cosine' }, shard_number: 3, replication_factor: 2 });
    const id = await catalogId('docs');
    for (const n of [b, c]) await until('docs on every node', async () => ((await names(n)).includes('docs') ? true : undefined));
    for (let s = 0; s < 3; s++) {
      const asg = (await assignment(id, s))!;
      expect(asg.replicas).toHaveLength(2);
      expect(new Set(asg.replicas.map((r) => r.node)).size).toBe(2);
      for (const r of asg.replicas) expect(ids).toContain(r.node);
      expect(asg.replicas.every((r) => r.state === 'Active')).toBe(true);
    }
    // Each replica node follows its shards under that id and reports them; no other node does.
    await until('status reports for every replica', async () => {
      for (let s = 0; s < 3; s++) {
        const asg = (await assignment(id, s))!;
        for (const node of ids) {
          const st = await get<NodeStatus>(`status/${node}`);
          const has = st?.shards[`${id}/${s}`] !== undefined;
          if (has !== asg.replicas.some((r) => r.node === node)) return undefined;
        }
      }
      return true;
    });
  });

  it('a create answers once every node has it: a write through B and C right after a create through A finds the collection', { timeout: 90_000 }, async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    const made = ['fresh0', 'fresh1', 'fresh2', 'fresh3', 'fresh4'];
    for (const name of made) {
      expect((await call(a.url, 'PUT', `/collections/${name}`, { vectors: { size: 2, distance: 'Dot' }, shard_number: 2, replication_factor: 1 })).status).toBe(200);
      // No wait: the other nodes reported the catalog applied this far before the create answered.
      const rev = Number((await kv.get(`/quiver/catalog/${name}`).exec()).kvs[0]!.mod_revision);
      for (const node of ids.slice(1)) expect((await get<NodeStatus>(`status/${node}`))?.catalog_rev, `node ${node} after ${name}`).toBeGreaterThanOrEqual(rev);
      for (const [i, n] of [b, c].entries()) {
        const up = await call(n.url, 'PUT', `/collections/${name}/points?wait=true`, { points: [{ id: i + 1, vector: [1, i] }] });
        expect(up.status, `${name} through ${n.url}: ${JSON.stringify(up.body)}`).toBe(200);
      }
    }
    for (const name of made) expect((await call(a.url, 'DELETE', `/collections/${name}`)).status).toBe(200);
    for (const n of nodes) await until('the fresh collections gone everywhere', async () => ((await names(n)).some((x) => x.startsWith('fresh')) ? undefined : true));
  });

  it('two nodes creating one name at once: one 200, the other 409 naming the collection', { timeout: 60_000 }, async () => {
    const body = { vectors: { size: 4, distance: 'Dot' } };
    const [r1, r2] = await Promise.all([call(nodes[0]!.url, 'PUT', '/collections/race', body), call(nodes[1]!.url, 'PUT', '/collections/race', body)]);
    const statuses = [r1.status, r2.status].sort();
    expect(statuses).toEqual([200, 409]);
    const lost = r1.status === 409 ? r1 : r2;
    expect(lost.body.status.error).toBe('Collection already exists: race');
    // And a create of a name that exists fails on the third node too, though it was never created there.
    const again = await call(nodes[2]!.url, 'PUT', '/collections/race', body);
    expect(again.status).toBe(409);
    expect(again.body.status.error).toBe('Collection already exists: race');
  });

  it('a point written with wait=true through A is applied by every replica node of its shard', { timeout: 90_000 }, async () => {
    const a = new QdrantClient({ url: nodes[0]!.url });
    await a.createCollection('all', { vectors: { size: 2, distance: 'Dot' }, shard_number: 2, replication_factor: 3 });
    const id = await catalogId('all');
    const points = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, vector: [i, 1] }));
    expect((await a.upsert('all', { wait: true, points })).status).toBe('completed');
    const last = [await lastSeq(id, 0), await lastSeq(id, 1)];
    expect(last[0]! + last[1]!).toBeGreaterThan(0);
    // Every node holds every shard (rf 3 on 3 nodes) and reports it applied to the log's end.
    await until('every node applied both shards', async () => {
      for (const node of ids) {
        const st = await get<NodeStatus>(`status/${node}`);
        for (let s = 0; s < 2; s++) if ((st?.shards[`${id}/${s}`]?.applied_seq ?? -1) < last[s]!) return undefined;
      }
      return true;
    });
    for (const n of nodes) {
      const r = await call(n.url, 'POST', '/collections/all/points/count', { exact: true });
      expect(r.body.result.count).toBe(20);
    }
  });

  it('a delete on B removes the collection everywhere, with its assignments; the name is free at once', { timeout: 60_000 }, async () => {
    const [a, b, c] = nodes as [TestServer, TestServer, TestServer];
    const id = await catalogId('race');
    const del = await call(b.url, 'DELETE', '/collections/race');
    expect(del.status).toBe(200);
    expect(del.body.result).toBe(true);
    expect(await get('catalog/race')).toBeNull();
    for (const n of [a, c]) await until('race gone from every node', async () => (!(await names(n)).includes('race') ? true : undefined));
    await until('its assignments removed', async () => ((await assignment(id, 0)) === null ? true : undefined));
    // A second delete answers as for a missing collection (Qdrant: 200, result false).
    const again = await call(c.url, 'DELETE', '/collections/race');
    expect(again.status).toBe(200);
    expect(again.body.result).toBe(false);
    // The name is free again, under a new id.
    expect((await call(a.url, 'PUT', '/collections/race', { vectors: { size: 2, distance: 'Dot' } })).status).toBe(200);
    expect(await catalogId('race')).toBeGreaterThan(id);
  });

  it('kill -9 of the controller node: its replicas Dead; after the grace a replacement becomes Active; the node restarted comes back Partial, then Active', { timeout: 180_000 }, async () => {
    // 8 shards of 2 replicas, spread over the three nodes: every node holds some, so the victim
    // below always has a shard to watch.
    await new QdrantClient({ url: nodes[0]!.url }).createCollection('spread', { vectors: { size: 2, distance: 'Dot' }, shard_number: 8, replication_factor: 2 });
    const docs = await catalogId('spread');
    for (let s = 0; s < 8; s++) await until(`spread/${s} placed`, async () => ((await assignment(docs, s))?.replicas.length === 2 ? true : undefined));
    const all = await catalogId('all');
    // The node to kill: the controller, in a shard it holds a replica of (rf 2: the third node can
    // replace it), so the replacement is placed by the next controller, from etcd's state.
    const victim = Number((await call(nodes[0]!.url, 'GET', '/cluster')).body.result.raft_info.leader);
    let shard = -1;
    for (let s = 0; s < 8 && shard < 0; s++) if ((await assignment(docs, s))!.replicas.some((r) => r.node === victim)) shard = s;
    expect(shard).toBeGreaterThanOrEqual(0);
    const before = (await assignment(docs, shard))!;
    const vi = ids.indexOf(victim);
    const spare = ids.find((n) => !before.replicas.some((r) => r.node === n))!;
    // Every change of `all` shard 0 (rf 3: no spare node, so the victim's replica waits for it).
    const seen: string[] = [];
    const watcher = await kv.watch().key(`/quiver/assign/${all}/0`).create();
    watcher.on('put', (e) => {
      const a = JSON.parse(e.value.toString('utf8')) as Assignment;
      const mine = a.replicas.find((r) => r.node === victim);
      if (mine !== undefined && seen[seen.length - 1] !== mine.state) seen.push(mine.state);
    });
    try {
      await nodes[vi]!.stop('SIGKILL');
      await until('the victim Dead in spread', async () => ((await assignment(docs, shard))!.replicas.find((r) => r.node === victim)?.state === 'Dead' ? true : undefined));
      const replaced = await until(
        () => `a replacement Active on ${spare} and the Dead replica removed`,
        async () => {
          const a = (await assignment(docs, shard))!;
          const ok = a.replicas.some((r) => r.node === spare && r.state === 'Active') && !a.replicas.some((r) => r.node === victim);
          return ok ? a : undefined;
        },
      );
      expect(replaced.replicas).toHaveLength(2);
      expect(replaced.epoch).toBeGreaterThan(before.epoch);
      // `all` keeps its Dead replica: no free node to replace it on.
      const allNow = (await assignment(all, 0))!;
      expect(allNow.replicas.find((r) => r.node === victim)?.state, `${victim} in ${JSON.stringify(allNow)}; seen ${JSON.stringify(seen)}`).toBe('Dead');
      // While it is down, the catalog moves on: one collection created, one deleted.
      const live = nodes.filter((_, i) => i !== vi);
      expect((await call(live[0]!.url, 'PUT', '/collections/late', { vectors: { size: 2, distance: 'Dot' } })).status).toBe(200);
      expect((await call(live[1]!.url, 'DELETE', '/collections/race')).body.result).toBe(true);
      nodes[vi] = await start(vi);
      await until('the victim Active again in all/0', async () => ((await assignment(all, 0))!.replicas.find((r) => r.node === victim)?.state === 'Active' ? true : undefined));
      // A read can see a revision before the watch delivers it: wait for the watch to catch up.
      await until('the watch to deliver Active', async () => (seen[seen.length - 1] === 'Active' ? true : undefined), 10_000);
      expect(seen).toEqual(['Dead', 'Partial', 'Active']);
      // Its data came back through the log from its own position.
      const r = await call(nodes[vi]!.url, 'POST', '/collections/all/points/count', { exact: true });
      expect(r.body.result.count).toBe(20);
      // Its catalog caught up with what changed while it was down.
      expect(await names(nodes[vi]!)).toEqual(['all', 'docs', 'late', 'spread']);
    } finally {
      await watcher.cancel();
    }
  });

  it('PATCH and field indexes on one node reach every node; a raised replication_factor places a replica on the third node', { timeout: 90_000 }, async () => {
    const id = await catalogId('docs');
    const before = (await assignment(id, 1))!;
    expect(before.replicas).toHaveLength(2);
    const patch = await call(nodes[2]!.url, 'PATCH', '/collections/docs', { params: { replication_factor: 3, write_consistency_factor: 2 } });
    expect(patch.status).toBe(200);
    const index = await call(nodes[1]!.url, 'PUT', '/collections/docs/index?wait=true', { field_name: 'tag', field_schema: 'keyword' });
    expect(index.status).toBe(200);
    for (const n of nodes) {
      await until('the config on every node', async () => {
        const r = await call(n.url, 'GET', '/collections/docs');
        const cfg = r.body.result.config.params;
        return cfg.replication_factor === 3 && cfg.write_consistency_factor === 2 && r.body.result.payload_schema.tag?.data_type === 'keyword' ? true : undefined;
      });
    }
    // A PATCH of a collection that is not there answers 404 as on one node.
    const missing = await call(nodes[0]!.url, 'PATCH', '/collections/nowhere', { params: { replication_factor: 2 } });
    expect(missing.status).toBe(404);
    const placed = await until('three Active replicas of docs/1', async () => {
      const a = (await assignment(id, 1))!;
      return a.replicas.length === 3 && a.replicas.every((r) => r.state === 'Active') ? a : undefined;
    });
    expect(new Set(placed.replicas.map((r) => r.node)).size).toBe(3);
    expect(placed.replicas.slice(0, 2).map((r) => r.node)).toEqual(before.replicas.map((r) => r.node));
  });

  it('a node paused past its lease: its replicas Dead, and once it resumes Partial, then Active again', { timeout: 120_000 }, async () => {
    const all = await catalogId('all');
    const pi = 1;
    const paused = ids[pi]!;
    const seen: string[] = [];
    const watcher = await kv.watch().key(`/quiver/assign/${all}/1`).create();
    watcher.on('put', (e) => {
      const mine = (JSON.parse(e.value.toString('utf8')) as Assignment).replicas.find((r) => r.node === paused);
      if (mine !== undefined && seen[seen.length - 1] !== mine.state) seen.push(mine.state);
    });
    try {
      nodes[pi]!.proc.kill('SIGSTOP');
      try {
        await until('its replica Dead', async () => ((await assignment(all, 1))!.replicas.find((r) => r.node === paused)?.state === 'Dead' ? true : undefined));
      } finally {
        nodes[pi]!.proc.kill('SIGCONT');
      }
      await until('its replica Active again', async () => ((await assignment(all, 1))!.replicas.find((r) => r.node === paused)?.state === 'Active' ? true : undefined));
      await until('the watch to deliver Active', async () => (seen[seen.length - 1] === 'Active' ? true : undefined), 10_000);
      expect(seen).toEqual(['Dead', 'Partial', 'Active']);
      const r = await until('the node serving again', async () => {
        const res = await call(nodes[pi]!.url, 'POST', '/collections/all/points/count', { exact: true });
        return res.status === 200 ? res : undefined;
      });
      expect(r.body.result.count).toBe(20);
    } finally {
      await watcher.cancel();
    }
  });
});
