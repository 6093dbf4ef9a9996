// A new replica starts from a snapshot, with three Quiver nodes (1 worker each, 2 s leases, a 2 s
// dead grace, a snapshot every 25 entries) on one etcd and one NATS server, all started by PID. A
// shard with two replicas is written until it has been snapshotted and its stream purged; one
// replica node is killed -9; the controller places a replacement on the third node, which finds
// the log purged below its (empty) position, restores the snapshot and replays the rest. Once
// stopped, the replacement's LMDB holds the same ids, versions, vectors and payloads as the
// surviving replica's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Assignment, NodeStatus } from '../../../src/shared/cluster/assignments.js';
import type { SnapshotRecord } from '../../../src/main/cluster/snapshots.js';
import { openDb, shardRange } from '../../../src/shared/db.js';
import { streamName } from '../../../src/shared/log-entry.js';
import type { PointId } from '../../../src/shared/types.js';
import type { TestServer } from '../../helpers/server.js';
import { etcdMissing } from '../../helpers/etcd.js';
import { startThreeNodes, until as poll, type ThreeNodes } from '../../helpers/three-nodes.js';

/** Polls until probe answers: 90 s bounds, the restore and replay take a while on the busy machine. */
const until = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => poll(what, probe, 90_000, 200);

/** id -> [version, payload, vector bytes] in a stopped node's LMDB. */
function onDisk(dir: string, collection: number): Map<PointId, [number, unknown, number[]]> {
  const db = openDb(dir);
  try {
    const { start, end } = shardRange(collection, 0);
    const out = new Map<PointId, [number, unknown, number[]]>();
    for (const { key, value } of db.points.getRange({ start, end })) out.set(key[2], [value.v, value.p, [...(value.x[''] ?? [])]]);
    return out;
  } finally {
    void db.root.close();
  }
}

function parseLine(line: string): { msg?: string; snapshot_seq?: number; applied_seq?: number } | null {
  try {
    return JSON.parse(line) as { msg?: string };
  } catch {
    return null;
  }
}

describe.skipIf(etcdMissing() !== null)('a replacement replica starts from the snapshot', () => {
  let cluster: ThreeNodes;
  let nodes: TestServer[] = [];
  let ids: number[] = [];
  let dirs: string[] = [];
  const get = <T>(key: string): Promise<T | null> => cluster.get<T>(key);
  const stream = async (id: number): Promise<{ first_seq: number; last_seq: number }> => {
    const nc = await cluster.nats.connect();
    try {
      return (await (await jetstreamManager(nc)).streams.info(streamName(id, 0))).state;
    } finally {
      await nc.close();
    }
  };

  beforeAll(async () => {
    cluster = await startThreeNodes({ env: { SERVICE_CLUSTER_SNAPSHOT_ENTRIES: '25' } });
    ({ nodes, ids, dirs } = cluster);
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
  });

  it('restores the snapshot on the node that replaces a killed replica, then replays to the survivor\'s content', { timeout: 300_000 }, async () => {
    await new QdrantClient({ url: nodes[0]!.url }).createCollection('snapped', { vectors: { size: 4, distance: 'Cosine' }, shard_number: 1, replication_factor: 2 });
    const id = (await get<{ id: number }>('catalog/snapped'))!.id;
    const placed = await until('snapped placed on two nodes', async () => {
      const a = await get<Assignment>(`assign/${id}/0`);
      return a !== null && a.replicas.length === 2 ? a : undefined;
    });
    const survivor = ids.indexOf(placed.replicas[0]!.node);
    const victim = ids.indexOf(placed.replicas[1]!.node);
    const spare = [0, 1, 2].find((i) => i !== survivor && i !== victim)!;
    const client = new QdrantClient({ url: nodes[survivor]!.url });
    const write = async (from: number, to: number): Promise<void> => {
      for (let p = from; p < to; p++) {
        const r = await client.upsert('snapped', { wait: true, points: [{ id: p, vector: [p, 1, p % 5, 2], payload: { p, round: Math.floor(p / 10) } }] });
        expect(r.status).toBe('completed');
      }
    };

    // Both replicas apply; the survivor (first Active in the assignment) snapshots every 25 entries,
    // and the stream is purged below min(snapshot, both replicas' positions).
    await write(0, 60);
    const first = await until('a snapshot and a purge', async () => {
      const rec = await get<SnapshotRecord>(`snapshots/${id}/0`);
      const st = await stream(id);
      return rec !== null && rec.seq >= 25 && st.first_seq > 1 ? rec : undefined;
    });
    expect(first.object).toBe(`${id}-0-${first.seq}`);

    await nodes[victim]!.stop('SIGKILL');
    await write(60, 100);
    // After the grace the spare gets a replica: empty, below the purge, it restores the snapshot.
    await until('a replacement Active on the spare and the Dead replica removed', async () => {
      const a = (await get<Assignment>(`assign/${id}/0`))!;
      const ok = a.replicas.some((r) => r.node === ids[spare] && r.state === 'Active') && !a.replicas.some((r) => r.node === ids[victim]);
      return ok ? true : undefined;
    });
    const restored = nodes[spare]!.logs.map(parseLine).find((l) => l?.msg === 'cluster: shard snapshot restored; the replica replays the log after it');
    expect(restored).toMatchObject({ applied_seq: 0 });
    expect(restored!.snapshot_seq).toBeGreaterThanOrEqual(first.seq);

    const last = (await stream(id)).last_seq;
    await until('both replicas at the log end', async () => {
      for (const i of [survivor, spare]) {
        const st = await get<NodeStatus>(`status/${ids[i]}`);
        if ((st?.shards[`${id}/0`]?.applied_seq ?? -1) < last) return undefined;
      }
      return true;
    });
    await nodes[survivor]!.stop('SIGTERM');
    await nodes[spare]!.stop('SIGTERM');
    const want = onDisk(dirs[survivor]!, id);
    expect(want.size).toBe(100);
    expect(onDisk(dirs[spare]!, id)).toEqual(want);
  });
});
