// Cluster mode's data plane with a one-server NATS and a one-member etcd (started by PID) and one Quiver node: point
// writes go through the shard streams and come back applied; a node killed with -9 mid-ingest
// resumes from its applied_seq with every acknowledged point and no entry applied twice; a log
// found behind applied_seq marks the shard Dead; an unreachable NATS stops start-up.

import { jetstreamManager } from '@nats-io/jetstream';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/shared/db.js';
import { appliedSeqKey, streamName } from '../../../src/shared/log-entry.js';
import { freePort } from '../../helpers/ports.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';
import { startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { call, removeDir, startServer, tempDataDir, type TestServer } from '../../helpers/server.js';

let nats: NatsCluster;
let etcd: EtcdCluster;
const dataDir = tempDataDir();
const servers: TestServer[] = [];

function env(): Record<string, string> {
  return { SERVICE_CLUSTER_NATS: nats.servers, SERVICE_CLUSTER_ETCD: etcd.endpoints, SERVICE_CLUSTER_STREAM_REPLICAS: '1', SERVICE_CLUSTER_LEASE_SECONDS: '2' };
}

async function start(): Promise<TestServer> {
  const s = await startServer({ dataDir, shards: 2, env: env() });
  servers.push(s);
  return s;
}

async function lastSeqs(collection: number, shards: number): Promise<number[]> {
  const nc = await nats.connect();
  try {
    const jsm = await jetstreamManager(nc);
    const out: number[] = [];
    for (let s = 0; s < shards; s++) out.push((await jsm.streams.info(streamName(collection, s))).state.last_seq);
    return out;
  } finally {
    await nc.close();
  }
}

/** applied_seq and point versions per shard, read from LMDB with the server stopped. */
function onDisk(collection: number, shards: number): { applied: number[]; versions: number[][]; ids: Set<number> } {
  const db = openDb(dataDir);
  try {
    const applied = Array.from({ length: shards }, (_, s) => db.meta.get(appliedSeqKey(collection, s)) ?? 0);
    const versions: number[][] = Array.from({ length: shards }, () => []);
    const ids = new Set<number>();
    for (const { key, value } of db.points.getRange({ start: [collection], end: [collection + 1] })) {
      versions[key[1]]!.push(value.v);
      ids.add(key[2] as number);
    }
    return { applied, versions, ids };
  } finally {
    void db.root.close();
  }
}

beforeAll(async () => {
  [nats, etcd] = await Promise.all([startNats(1), startEtcd(1)]);
});

afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  await Promise.all([nats?.close(), etcd?.stop()]);
  removeDir(dataDir);
});

describe('cluster writes through the shard logs', () => {
  it('answers writes as Qdrant does, applied by the shard', async () => {
    const s = await start();
    const c = new QdrantClient({ url: s.url });
    await c.createCollection('w', { vectors: { size: 3, distance: 'Cosine' }, shard_number: 2 });
    expect(await lastSeqs(1, 2)).toEqual([0, 0]);
    const done = await c.upsert('w', { wait: true, points: [{ id: 1, vector: [1, 0, 0], payload: { a: 1 } }, { id: 2, vector: [0, 1, 0] }, { id: 3, vector: [0, 0, 1] }] });
    expect(done.status).toBe('completed');
    // operation_id is the largest sequence of the write's parts.
    expect(done.operation_id).toBe(Math.max(...(await lastSeqs(1, 2))));
    const ack = await c.upsert('w', { wait: false, points: [{ id: 4, vector: [1, 1, 0] }] });
    expect(ack.status).toBe('acknowledged');
    await c.setPayload('w', { wait: true, payload: { b: 2 }, points: [2] });
    const del = await c.delete('w', { wait: true, filter: { must: [{ key: 'a', match: { value: 1 } }] } });
    expect(del.status).toBe('completed');
    const got = await c.retrieve('w', { ids: [1, 2, 3, 4], with_payload: true });
    expect(got.map((p) => p.id).sort()).toEqual([2, 3, 4]);
    expect(got.find((p) => p.id === 2)?.payload).toEqual({ b: 2 });
    // A write that fails validation answers 400 and never reaches the log.
    const before = await lastSeqs(1, 2);
    const bad = await call(s.url, 'PUT', '/collections/w/points?wait=true', { points: [{ id: 9, vector: [1, 0] }] });
    expect(bad.status).toBe(400);
    expect(bad.body.status.error).toContain("Dimension mismatch for vector '': expected 3, got 2");
    expect(await lastSeqs(1, 2)).toEqual(before);
    await s.stop('SIGTERM');
  });

  it('resumes from applied_seq after kill -9 mid-ingest: every acknowledged point, no entry applied twice', { timeout: 120_000 }, async () => {
    let s = await start();
    const c = new QdrantClient({ url: s.url });
    await c.createCollection('k', { vectors: { size: 3, distance: 'Dot' }, shard_number: 2 });
    const acked: number[] = [];
    let next = 0;
    let killed = false;
    const writer = async (): Promise<void> => {
      while (!killed) {
        const id = next++;
        try {
          await c.upsert('k', { wait: id % 2 === 0, points: [{ id, vector: [id, 1, 0], payload: { id } }] });
          acked.push(id);
        } catch {
          return;
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    while (acked.length < 300) await new Promise((r) => setTimeout(r, 20));
    killed = true;
    await s.stop('SIGKILL');
    await Promise.all(writers);
    s = await start();
    const c2 = new QdrantClient({ url: s.url });
    // The replica catches up from its applied_seq: wait until every acknowledged point is back.
    // A generous deadline: on a loaded machine the restarted node's replicas take a while to be Active again.
    for (const end = Date.now() + 60_000; Date.now() < end; ) {
      // 503 (no Active replica) while the restarted node's replicas are Partial, catching up.
      const found = await c2.retrieve('k', { ids: acked, with_payload: false }).catch(() => []);
      if (found.length === acked.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await c2.retrieve('k', { ids: acked })).length).toBe(acked.length);
    await s.stop('SIGTERM');
    const last = await lastSeqs(2, 2);
    const disk = onDisk(2, 2);
    expect(disk.applied).toEqual(last);
    for (const id of acked) expect(disk.ids.has(id)).toBe(true);
    for (let sh = 0; sh < 2; sh++) {
      // One point per entry: as many points as entries, each at its own sequence.
      expect(new Set(disk.versions[sh]).size).toBe(disk.versions[sh]!.length);
      expect(disk.versions[sh]!.length).toBe(last[sh]);
      expect(Math.max(...disk.versions[sh]!)).toBeLessThanOrEqual(last[sh]!);
    }
  });

  it('marks a shard Dead when its log is behind applied_seq, and it does not serve', { timeout: 120_000 }, async () => {
    // With the server stopped, shard 0's stream of collection 'w' (id 1) starts over, empty.
    const nc = await nats.connect();
    try {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(streamName(1, 0));
      expect(info.state.last_seq).toBeGreaterThan(0);
      await jsm.streams.delete(streamName(1, 0));
      await jsm.streams.add(info.config);
    } finally {
      await nc.close();
    }
    const s = await start();
    let res = await call(s.url, 'POST', '/collections/w/points/count', {});
    // Dead once the log has answered below applied_seq for BEHIND_CONFIRM_MS (15 s) and more.
    const dead = (): boolean => s.logs.some((l) => l.includes('"level":50') && l.includes('is Dead'));
    for (let i = 0; i < 600 && (res.status === 200 || !dead()); i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await call(s.url, 'POST', '/collections/w/points/count', {});
    }
    expect(res.status).toBe(503);
    // The worker's own refusal, or (reads routed by the assignment) its replica out of reads.
    expect(res.body.status.error).toMatch(/shard 1\/0 is Dead: applied_seq \d+ is past its log's last sequence 0|^No Active replica of shard 0 of collection w \(node \d+ (Dead|Partial)\): retry later$/);
    expect(dead()).toBe(true);
    // Not on the first answer: it was checked again first.
    expect(s.logs.some((l) => l.includes('"level":40') && l.includes('checking again before marking the shard Dead'))).toBe(true);
    const r = await fetch(`${s.url}/collections/w/points/count`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.headers.get('retry-after')).toBe('2');
    await s.stop('SIGTERM');
  });

  it('refuses to start when NATS cannot be reached, naming the setting', async () => {
    const port = await freePort();
    const err = await startServer({ dataDir: tempDataDir(), env: { SERVICE_CLUSTER_NATS: `127.0.0.1:${port}`, SERVICE_CLUSTER_ETCD: etcd.endpoints } }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/exited with 2/);
    expect(String(err)).toContain(`quiver: cannot reach NATS at 127.0.0.1:${port} (SERVICE_CLUSTER_NATS)`);
  });
});
