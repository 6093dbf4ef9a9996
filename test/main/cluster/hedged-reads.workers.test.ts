// Hedged reads on three real Quiver nodes (1 worker each, 10 s leases, a dead grace longer than the
// test) on one etcd and one NATS server, all started and stopped by PID, through the official REST
// client: a collection of one shard with two replicas, read through the third node, which holds
// none. Each replica's node in turn is paused (SIGSTOP; SIGCONT in finally) for a few seconds, far
// less than its lease: it keeps its lease and stays Active, so only the hedge can take its reads
// elsewhere. Every read through the third node must answer with a client timeout of 3 s, well
// below the 10 s the lease would take to lapse. Also: cluster_enabled reads 1 on every node.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import type { Assignment } from '../../../src/shared/cluster/assignments.js';
import { call } from '../../helpers/server.js';
import { etcdMissing } from '../../helpers/etcd.js';
import { sample, scrape } from '../../helpers/metrics.js';
import { startThreeNodes, until, type ThreeNodes } from '../../helpers/three-nodes.js';

const DIM = 4;
const vectorOf = (i: number): number[] => [i, (i * 7) % 11, (i * 3) % 5, 1];
const N = 30;
const points = Array.from({ length: N }, (_, k) => ({ id: k + 1, vector: vectorOf(k + 1), payload: { k: k + 1 } }));
const LEASE_SECONDS = 10;
/** The reads' client timeout: well below the lease, so a read waiting for it to lapse fails. */
const CLIENT_TIMEOUT_MS = 3000;

describe.skipIf(etcdMissing() !== null)('three nodes: a paused replica\'s reads are hedged to the other one', () => {
  let cluster: ThreeNodes;
  let nodes: ThreeNodes['nodes'];
  let ids: number[];

  beforeAll(async () => {
    cluster = await startThreeNodes({
      leaseSeconds: LEASE_SECONDS,
      deadGraceSeconds: 3600,
      // Below the client timeout with room for a busy machine; the learned deadline is lower.
      env: { SERVICE_CLUSTER_HEDGE_MS: '300' },
    });
    ({ nodes, ids } = cluster);
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes ?? []) if (n.proc.pid !== undefined && n.proc.exitCode === null) n.proc.kill('SIGCONT');
    await cluster?.close();
  });

  it('cluster_enabled reads 1 on every node in cluster mode', async () => {
    for (const n of nodes) expect(sample(await scrape(n.url), 'cluster_enabled')).toBe(1);
  });

  it('with one replica\'s node paused, reads through a node without a replica answer within a client timeout far below the lease', { timeout: 180_000 }, async () => {
    const first = new QdrantClient({ url: nodes[0]!.url });
    await first.createCollection('hedged', { vectors: { size: DIM, distance: 'Euclid' }, shard_number: 1, replication_factor: 2 });
    const id = Number(JSON.parse((await cluster.kv.get('/quiver/catalog/hedged').string())!).id);
    const assignment = await until('both replicas Active', async () => {
      const raw = await cluster.kv.get(`/quiver/assign/${id}/0`).string();
      const a = raw === null ? null : (JSON.parse(raw) as Assignment);
      return a !== null && a.replicas.length === 2 && a.replicas.every((r) => r.state === 'Active') ? a : undefined;
    });
    for (const n of nodes) await until(`hedged readable through ${n.url}`, async () => ((await call(n.url, 'POST', '/collections/hedged/points/count', { exact: true })).status === 200 ? true : undefined));
    const holders = assignment.replicas.map((r) => ids.indexOf(r.node));
    const readerIndex = [0, 1, 2].find((i) => !holders.includes(i))!;
    const reader = new QdrantClient({ url: nodes[readerIndex]!.url, timeout: CLIENT_TIMEOUT_MS });
    expect((await first.upsert('hedged', { wait: true, points })).status).toBe('completed');
    await until('every point readable through the reader', async () => ((await reader.count('hedged', { exact: true })).count === N ? true : undefined));

    const reads = async (): Promise<void> => {
      expect((await reader.count('hedged', { exact: true })).count).toBe(N);
      const got = await reader.retrieve('hedged', { ids: points.map((p) => p.id), with_payload: true });
      expect(got.map((p) => p.id).sort((a, b) => Number(a) - Number(b))).toEqual(points.map((p) => p.id));
      const top = await reader.query('hedged', { query: vectorOf(13), limit: 1, params: { exact: true }, with_payload: true });
      expect(top.points.map((p) => [p.id, p.payload])).toEqual([[13, { k: 13 }]]);
    };
    const hedged = async (): Promise<number> => sample(await scrape(nodes[readerIndex]!.url), 'quiver_cluster_hedged_reads_total') ?? 0;
    // Warm: each kind of read learns its deadline from answers of both replicas.
    for (let i = 0; i < 8; i++) await reads();
    const before = await hedged();

    for (const paused of holders) {
      const pid = nodes[paused]!.proc.pid!;
      process.kill(pid, 'SIGSTOP');
      try {
        for (let round = 0; round < 3; round++) await reads();
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      // The resumed node kept its lease: it answers again before the other one is paused.
      await until(`node ${paused} answering again`, async () => ((await call(nodes[paused]!.url, 'POST', '/collections/hedged/points/count', { exact: true })).body.result?.count === N ? true : undefined));
    }
    // Not asserted: which replica a read asks first can change between the pauses (an equal
    // applied_seq, then fewer calls in flight decides), so a run may never ask a paused one first.
    // The reads above are what fails without hedging (SERVICE_CLUSTER_HEDGE_MS=0: client timeouts).
    console.log(`hedged reads during the pauses: ${(await hedged()) - before}`);
    // And neither node lost its lease: the replicas stayed Active throughout.
    const after = JSON.parse((await cluster.kv.get(`/quiver/assign/${id}/0`).string())!) as Assignment;
    expect(after.replicas.map((r) => r.state)).toEqual(['Active', 'Active']);
  });
});
