// The data plane across nodes, with three Quiver nodes (1 worker each, 2 s leases, a dead grace
// longer than the test so no replacement is placed) on one etcd and one NATS server, all started
// by PID, talked to through the official REST client: points written through one node are read
// through the others (retrieve, count, scroll, exact top-1 search), the same on every node; a
// strong `consistency` right after a wait=true write sees it through another node; a write needs
// write_consistency_factor Active replicas (503 with Retry-After otherwise); a node killed -9
// leaves reads answering through the others, and once its lease lapsed its replicas are Dead.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { ConnectErrorCode as Code, ReadConsistencyType } from '@qdrant/js-client-grpc';
import { enable, failure, grpcClient, id, idOf } from '../../helpers/grpc.js';
import { shardOf } from '../../../src/shared/placement.js';
import type { Assignment } from '../../../src/shared/cluster/assignments.js';
import { call, type TestServer } from '../../helpers/server.js';
import { etcdMissing } from '../../helpers/etcd.js';
import { startThreeNodes, until, type ThreeNodes } from '../../helpers/three-nodes.js';

const DIM = 4;
/** Distinct, well-separated vectors: point i's own vector is its exact nearest (Euclid). */
const vectorOf = (i: number): number[] => [i, (i * 7) % 11, (i * 3) % 5, 1];
const N = 30;
const points = Array.from({ length: N }, (_, k) => ({ id: k + 1, vector: vectorOf(k + 1), payload: { k: k + 1 } }));

describe.skipIf(etcdMissing() !== null)('three nodes: reads across nodes, write_consistency_factor, consistency', () => {
  let cluster: ThreeNodes;
  let nodes: TestServer[] = [];
  let ids: number[] = [];
  const clients: QdrantClient[] = [];
  const catalogId = (name: string): Promise<number> => cluster.catalogId(name);
  const assignment = (id: number, shard: number): Promise<Assignment | null> => cluster.assignment(id, shard);

  /** Creates through node 0 and waits until every node has it and can read every shard. */
  const urlOf = (c: QdrantClient): string => nodes[clients.indexOf(c)]!.url;
  const create = async (name: string, params: Record<string, unknown>): Promise<void> => {
    await clients[0]!.createCollection(name, { vectors: { size: DIM, distance: 'Euclid' }, ...params });
    for (const n of nodes) await until(`${name} readable through ${n.url}`, async () => ((await call(n.url, 'POST', `/collections/${name}/points/count`, { exact: true })).status === 200 ? true : undefined));
  };

  beforeAll(async () => {
    // No replacement while the test runs: a killed node's replicas stay Dead.
    cluster = await startThreeNodes({ deadGraceSeconds: 3600 });
    ({ nodes, ids } = cluster);
    for (const n of nodes) clients.push(new QdrantClient({ url: n.url }));
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('points upserted through A are found through B and C: retrieve, count, scroll and exact top-1, the same on every node', { timeout: 120_000 }, async () => {
    await create('docs', { shard_number: 3, replication_factor: 2 });
    // rf 2 on 3 nodes: 6 replicas for 9 node-shard pairs, so the reads of some nodes cross nodes
    // (the reads asserted below go through all three).
    expect((await clients[0]!.upsert('docs', { wait: true, points })).status).toBe('completed');
    const seen: string[] = [];
    for (const c of clients) {
      // consistency all: each shard's replica has applied the log's end, whichever node answers.
      const got = await c.retrieve('docs', { ids: points.map((p) => p.id), with_vector: true, with_payload: true, consistency: 'all' });
      expect(got.map((p) => p.id).sort((x, y) => Number(x) - Number(y))).toEqual(points.map((p) => p.id));
      for (const p of got) expect(p.vector).toEqual(vectorOf(Number(p.id)));
      // The client's count() sends no consistency: the query parameter by hand.
      expect((await call(urlOf(c), 'POST', '/collections/docs/points/count?consistency=all', { exact: true })).body.result.count).toBe(N);
      const scrolled = await c.scroll('docs', { limit: 100, with_payload: true, consistency: 'all' });
      expect(scrolled.points.map((p) => p.id)).toEqual(points.map((p) => p.id));
      const tops: unknown[] = [];
      for (const k of [1, 7, 13, 22, 30]) {
        const r = await c.query('docs', { query: vectorOf(k), limit: 3, params: { exact: true }, with_payload: true, consistency: 'all' });
        expect(r.points[0]!.id).toBe(k);
        expect(r.points[0]!.payload).toEqual({ k });
        tops.push(r.points.map((p) => [p.id, p.score]));
      }
      seen.push(JSON.stringify({ scrolled: scrolled.points, tops }));
    }
    expect(new Set(seen).size).toBe(1);
    // The default consistency reads what the picked replica applied: the same soon after.
    for (const c of clients.slice(1)) await until('every point through the default read', async () => ((await c.count('docs', { exact: true })).count === N ? true : undefined));
  });

  it('a malformed consistency answers 400 naming it', async () => {
    for (const path of ['/collections/docs/points/count?consistency=most', '/collections/docs/points/scroll?consistency=0']) {
      const r = await call(nodes[1]!.url, 'POST', path, {});
      expect(r.status).toBe(400);
      expect(r.body.status.error).toMatch(/^Bad request: consistency must be a number of replicas \(1 or more\) or one of majority, quorum, all; got "(most|0)"$/);
    }
  });

  it('wait=true with write_consistency_factor 2 answers completed; consistency all right after, through another node, sees the write', { timeout: 120_000 }, async () => {
    await create('strict', { shard_number: 2, replication_factor: 2, write_consistency_factor: 2 });
    for (let k = 1; k <= 6; k++) {
      const writer = clients[k % 3]!;
      const reader = clients[(k + 1) % 3]!;
      const r = await writer.upsert('strict', { wait: true, points: [{ id: k, vector: vectorOf(k), payload: { round: k } }] });
      expect(r.status).toBe('completed');
      const got = await reader.retrieve('strict', { ids: [k], with_payload: true, consistency: 'all' });
      expect(got.map((p) => [p.id, p.payload])).toEqual([[k, { round: k }]]);
      const n = await call(urlOf(reader), 'POST', '/collections/strict/points/count?consistency=majority', { exact: true });
      expect(n.body.result.count).toBe(k);
      // gRPC's read_consistency, on the third node.
      const grpc = grpcClient(nodes[(k + 2) % 3]!);
      const g = await grpc.api('points').get({ collectionName: 'strict', ids: [id(k)], withPayload: enable(true), readConsistency: { value: { case: 'type', value: ReadConsistencyType.All } } });
      expect(g.result.map((p) => idOf(p))).toEqual([k]);
    }
  });

  it('gRPC read_consistency with a factor of 0 answers INVALID_ARGUMENT naming it', async () => {
    const f = await failure(grpcClient(nodes[1]!).api('points').count({ collectionName: 'strict', exact: true, readConsistency: { value: { case: 'factor', value: 0n } } }));
    expect(f.code).toBe(Code.InvalidArgument);
    expect(f.message).toBe('read_consistency factor must be 1 or more, got 0');
  });

  it('write_consistency_factor above the Active replicas: 503 with Retry-After naming the shard, nothing written', { timeout: 60_000 }, async () => {
    await create('over', { shard_number: 1, replication_factor: 2, write_consistency_factor: 3 });
    for (const wait of [true, false]) {
      const res = await fetch(`${nodes[1]!.url}/collections/over/points?wait=${wait}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ points: [{ id: 1, vector: vectorOf(1) }] }),
      });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await res.json()) as { status: { error: string } };
      expect(body.status.error).toBe('Shard 0 of collection over has 2 Active replicas, fewer than write_consistency_factor 3: retry later');
    }
    expect((await call(nodes[0]!.url, 'POST', '/collections/over/points/count?consistency=all', { exact: true })).body.result.count).toBe(0);
  });

  it('kill -9 of a node: reads through the others keep answering; once its lease lapses its replicas are Dead, and a wcf 2 write to its shards answers 503', { timeout: 180_000 }, async () => {
    const docs = await catalogId('docs');
    const strict = await catalogId('strict');
    const victim = 2;
    const victimId = ids[victim]!;
    await nodes[victim]!.stop('SIGKILL');
    const live = clients.slice(0, victim);
    const deadIn = async (id: number, shards: number): Promise<boolean> => {
      for (let s = 0; s < shards; s++) {
        const a = await assignment(id, s);
        if (a?.replicas.some((r) => r.node === victimId && r.state !== 'Dead')) return false;
      }
      return true;
    };
    // Every read answers, before the lease lapses (a replica there refuses the connection: the
    // other one answers) and after (Dead: not asked).
    let rounds = 0;
    let dead = false;
    while (!dead || rounds < 3) {
      if (dead) rounds++;
      for (const c of live) {
        expect((await c.count('docs', { exact: true })).count).toBe(N);
        const got = await c.retrieve('docs', { ids: points.map((p) => p.id) });
        expect(got).toHaveLength(N);
        const top = await c.query('docs', { query: vectorOf(13), limit: 1, params: { exact: true } });
        expect(top.points[0]!.id).toBe(13);
      }
      dead = (await deadIn(docs, 3)) && (await deadIn(strict, 2));
      await new Promise((r) => setTimeout(r, 200));
    }
    // strict (rf 2, wcf 2): a shard with a replica on the dead node refuses writes; one without accepts.
    const shardsOnVictim = new Set<number>();
    for (let s = 0; s < 2; s++) if ((await assignment(strict, s))!.replicas.some((r) => r.node === victimId)) shardsOnVictim.add(s);
    for (let id = 100; id < 140; id++) {
      const s = shardOf(id, 2);
      const res = await call(nodes[0]!.url, 'PUT', '/collections/strict/points?wait=true', { points: [{ id, vector: vectorOf(id) }] });
      if (shardsOnVictim.has(s)) {
        expect(res.status).toBe(503);
        expect(res.body.status.error).toBe(`Shard ${s} of collection strict has 1 Active replica, fewer than write_consistency_factor 2: retry later`);
      } else {
        expect(res.status).toBe(200);
        expect(res.body.result.status).toBe('completed');
      }
    }
  });
});
