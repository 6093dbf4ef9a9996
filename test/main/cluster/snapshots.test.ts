// Snapshots bound replay (src/main/cluster/snapshots.ts) against a real nats-server and etcd
// (started by PID on free loopback ports). Each "node" is a ShardHost over its own data dir with
// the real apply loop (LogFollower), behind a one-worker dispatcher; writes go through the real
// publisher (ShardLog). Checked: a snapshot lands in the object store and etcd and the stream is
// purged to start right after it; a fresh replica restores it and replays the rest to the same
// ids, versions, vectors and payloads as the source; older objects go; a replica that finds its
// log purged past it is Dead until a restore, then catches up; the purge never passes an Active
// replica's applied_seq; a damaged object (digest mismatch) is refused, not loaded; a deleted
// collection's records and objects are removed; the schedule snapshots by entries.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShardLog } from '../../../src/shared/cluster/shard-log.js';
import { EtcdSnapshotPointers, SNAPSHOT_BUCKET, ShardSnapshots, type SnapshotRecord } from '../../../src/main/cluster/snapshots.js';
import type { ClusterState, ReplicaInfo } from '../../../src/shared/cluster/state.js';
import type { ClusterLog } from '../../../src/main/cluster/node.js';
import { openDb, shardRange, type QuiverDb } from '../../../src/shared/db.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { streamName, type LoggedWrite } from '../../../src/shared/log-entry.js';
import type { Op, RequestOf, ResultOf } from '../../../src/shared/protocol.js';
import { DEFAULT_HNSW, type CollectionMeta, type PointId } from '../../../src/shared/types.js';
import { LogFollower } from '../../../src/workers/cluster/apply-loop.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { etcdMissing, startEtcd, type EtcdCluster } from '../../helpers/etcd.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

let nats: NatsCluster;
let etcd: EtcdCluster;
let log: ShardLog;
let nc: NatsConnection;
let jsm: JetStreamManager;
let etcdClient: Etcd3;
const cleanup: (() => Promise<void> | void)[] = [];

const DIM = 8;
function metaOf(id: number): CollectionMeta {
  return {
    id,
    name: `snap${id}`,
    created_at: new Date(0).toISOString(),
    config: { vectors: { '': { size: DIM, distance: 'Cosine' } }, sparse_vectors: {}, shard_number: 1, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: { tag: { type: 'keyword' } } },
  };
}

/** A log line kept for the assertions. */
interface Line {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

class Node {
  readonly dir = mkdtempSync(join(tmpdir(), 'quiver-snapnode-'));
  readonly db: QuiverDb;
  readonly host: ShardHost;
  readonly lines: Line[] = [];
  follower: LogFollower | null = null;
  snapshots: ShardSnapshots | null = null;

  constructor(meta: CollectionMeta) {
    this.db = openDb(this.dir);
    this.db.catalog.putSync(meta.name, meta);
    this.host = new ShardHost(0, 1, this.db, join(this.dir, 'hnsw'), { savePolicy: { everyWrites: 0, everySeconds: 0 } });
    this.host.loadAll();
    cleanup.push(() => this.close());
  }

  readonly workers = {
    workerCount: 1,
    call: <O extends Op>(_w: number, req: RequestOf<O>): Promise<ResultOf<O>> => this.host.handle(structuredClone(req)),
  };

  readonly log: ClusterLog = {
    info: (fields, msg) => void this.lines.push({ level: 'info', msg, fields }),
    warn: (fields, msg) => void this.lines.push({ level: 'warn', msg, fields }),
    error: (fields, msg) => void this.lines.push({ level: 'error', msg, fields }),
  };

  async openSnapshots(
    meta: CollectionMeta,
    opts: { state?: ClusterState; entries?: number; collections?: () => { id: number; shards: number }[] } = {},
  ): Promise<ShardSnapshots> {
    this.snapshots = await ShardSnapshots.open({
      servers: [nats.nodes[0]!.url],
      replicas: 1,
      dataDir: this.dir,
      workers: this.workers,
      pointers: new EtcdSnapshotPointers(etcd.endpoints.split(',')),
      collections: opts.collections ?? (() => [{ id: meta.id, shards: 1 }]),
      state: opts.state ?? null,
      every: { entries: opts.entries ?? 100_000, minutes: 0 },
      log: this.log,
    });
    return this.snapshots;
  }

  /** Starts the apply loop of the collection's shard 0, as the main thread's followShards does. */
  async follow(collection: number): Promise<void> {
    this.follower = await LogFollower.connect([nats.nodes[0]!.url]);
    this.host.startFollowing(this.follower);
    await this.host.handle({ op: 'followShards', shards: [[collection, 0]] });
  }

  position(collection: number): Promise<ResultOf<'logPosition'>> {
    return this.host.handle({ op: 'logPosition', collection, shard: 0 });
  }

  async caughtUp(collection: number): Promise<void> {
    const last = await nats.lastSeq(streamName(collection, 0));
    await vi.waitFor(async () => expect((await this.position(collection)).applied).toBe(last), { timeout: 60_000, interval: 100 });
  }

  /** id -> [version, payload, vector bytes] of every stored point. */
  points(collection: number): Map<PointId, [number, unknown, number[]]> {
    const { start, end } = shardRange(collection, 0);
    const out = new Map<PointId, [number, unknown, number[]]>();
    for (const { key, value } of this.db.points.getRange({ start, end })) out.set(key[2], [value.v, value.p, [...(value.x[''] ?? [])]]);
    return out;
  }

  async close(): Promise<void> {
    await this.snapshots?.close();
    this.snapshots = null;
    await this.host.handle({ op: 'saveIndexes' }).catch(() => undefined);
    await this.follower?.close().catch(() => undefined);
    this.follower = null;
    await this.db.root.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

let request = 0;
function vec(id: number, seed: number): Float32Array {
  return Float32Array.from({ length: DIM }, (_, i) => Math.sin(id * (i + 1) + seed));
}

/** `n` log entries on the collection's shard 0: upserts of a few points, some payload sets and deletes. */
async function writeEntries(collection: number, n: number, seed: number): Promise<void> {
  for (let e = 0; e < n; e++) {
    let w: LoggedWrite;
    if (e % 10 === 7) w = { op: 'delete', ids: [seed * 1000 + e - 3], filter: null };
    else if (e % 10 === 8) w = { op: 'payload', change: { kind: 'set', payload: { tag: `t${seed}` }, key: null }, ids: [seed * 1000 + e - 1], filter: null };
    else {
      const ids = [seed * 1000 + e, e]; // `e` is rewritten by every round: versions move
      const data = new Float32Array(ids.length * DIM);
      ids.forEach((id, i) => data.set(vec(id, seed), i * DIM));
      w = { op: 'upsert', batch: { ids, payloads: ids.map((id) => ({ tag: `p${id % 3}`, seed })), vectors: { '': { data, present: null } }, sparse: {} }, condition: { mode: 'upsert', updateFilter: null } };
    }
    await log.publish(collection, 0, ++request, w);
  }
}

async function streamState(collection: number): Promise<{ first_seq: number; last_seq: number; messages: number }> {
  return (await jsm.streams.info(streamName(collection, 0))).state;
}

async function record(collection: number): Promise<SnapshotRecord | null> {
  const v = await etcdClient.get(`/quiver/snapshots/${collection}/0`).string();
  return v === null ? null : (JSON.parse(v) as SnapshotRecord);
}

async function objects(): Promise<string[]> {
  const { Objm } = await import('@nats-io/obj');
  const store = await new Objm(nc).open(SNAPSHOT_BUCKET);
  return (await store.list()).map((o) => o.name).sort();
}

/** A ClusterState with fixed replicas of every shard. */
function fixedState(nodeId: number, replicas: ReplicaInfo[]): ClusterState {
  return { nodeId, replicas: () => replicas, epoch: () => 1, peer: () => undefined, onChange: () => () => undefined };
}

let nextCollection = 1;
async function collection(): Promise<CollectionMeta> {
  const meta = metaOf(nextCollection++);
  await log.createStreams(meta.id, 1);
  return meta;
}

describe.skipIf(etcdMissing() !== null)('shard snapshots through the object store', () => {
  beforeAll(async () => {
    [nats, etcd] = await Promise.all([startNats(1), startEtcd(1)]);
    log = await ShardLog.open({ servers: [nats.nodes[0]!.url], replicas: 1 });
    nc = await nats.connect();
    jsm = await jetstreamManager(nc);
    etcdClient = new Etcd3({ hosts: etcd.endpoints.split(',') });
  }, 60_000);

  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
    etcdClient?.close();
    await nc?.close();
    await log?.close();
    await nats?.close();
    await etcd?.stop();
  });

  it('a snapshot then purge leaves the stream starting after it; a fresh replica restores it and replays the rest to the same points', { timeout: 180_000 }, async () => {
    const meta = await collection();
    const a = new Node(meta);
    await a.follow(meta.id);
    await writeEntries(meta.id, 60, 1);
    await a.caughtUp(meta.id);
    const snaps = await a.openSnapshots(meta);

    const rec = await snaps.snapshot(meta.id, 0);
    expect(rec.seq).toBe(60);
    expect(rec.object).toBe(`${meta.id}-0-60`);
    expect(await record(meta.id)).toEqual(rec);
    expect(await objects()).toContain(rec.object);
    // Purged below the snapshot: the stream starts right after it.
    expect(await streamState(meta.id)).toMatchObject({ first_seq: 61, last_seq: 60, messages: 0 });
    // Nothing newer: asked again, the record stays.
    expect(await snaps.snapshot(meta.id, 0)).toEqual(rec);

    await writeEntries(meta.id, 25, 2);
    await a.caughtUp(meta.id);

    // A fresh replica: its shard opened empty; restored before it follows, then it replays 61..85.
    const b = new Node(meta);
    const bSnaps = await b.openSnapshots(meta);
    expect(await bSnaps.prepareReplica(meta.id, 0)).toBe('restored');
    expect(await b.position(meta.id)).toMatchObject({ applied: 60, following: false, dead: null });
    await b.follow(meta.id);
    await b.caughtUp(meta.id);
    const want = a.points(meta.id);
    expect(want.size).toBeGreaterThan(50);
    expect(b.points(meta.id)).toEqual(want);
    expect(b.lines.find((l) => l.msg === 'cluster: shard snapshot restored; the replica replays the log after it')?.fields).toMatchObject({ applied_seq: 0, snapshot_seq: 60, first_seq: 61 });

    // A second snapshot replaces the first: the older object goes, the stream moves on.
    const rec2 = await snaps.snapshot(meta.id, 0);
    expect(rec2.seq).toBe(85);
    expect((await objects()).filter((o) => o.startsWith(`${meta.id}-0-`))).toEqual([`${meta.id}-0-85`]);
    expect(await streamState(meta.id)).toMatchObject({ first_seq: 86, messages: 0 });
    // A replica already at the snapshot's position has nothing to restore.
    expect(await bSnaps.prepareReplica(meta.id, 0)).toBe('current');
  });

  it('a replica whose log was purged past it is Dead (not fed the entries after the gap) until a restore, then catches up', { timeout: 180_000 }, async () => {
    const meta = await collection();
    const a = new Node(meta);
    await a.follow(meta.id);
    await writeEntries(meta.id, 30, 3);
    await a.caughtUp(meta.id);
    await (await a.openSnapshots(meta)).snapshot(meta.id, 0);
    await writeEntries(meta.id, 10, 4);
    await a.caughtUp(meta.id);

    // A replica that follows from its applied_seq 0 without preparing: entries 1..30 are gone.
    const c = new Node(meta);
    await c.follow(meta.id);
    await vi.waitFor(async () => expect((await c.position(meta.id)).purged).toBe(true), { timeout: 30_000, interval: 100 });
    const pos = await c.position(meta.id);
    expect(pos).toEqual({ applied: 0, following: false, purged: true, dead: `shard ${meta.id}/0 is Dead: its log was purged past applied_seq 0 (first entry 31); it needs a snapshot restore` });
    expect(c.points(meta.id).size).toBe(0);
    const read = await c.host.handle({ op: 'count', collection: meta.id, shard: 0, filter: null, exact: true }).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(QuiverError);
    expect((read as QuiverError).code).toBe('ShardUnavailable');

    // Its schedule restores it (the purged replica is prepared again); the loop resumes after it.
    const snaps = await c.openSnapshots(meta);
    snaps.start(100);
    await c.caughtUp(meta.id);
    expect(await c.position(meta.id)).toMatchObject({ following: true, dead: null, purged: false });
    expect(c.points(meta.id)).toEqual(a.points(meta.id));
  });

  it('the purge never passes an Active replica\'s applied_seq (a Dead one, or one that reported nothing, does not hold it)', { timeout: 120_000 }, async () => {
    const meta = await collection();
    const a = new Node(meta);
    await a.follow(meta.id);
    await writeEntries(meta.id, 40, 5);
    await a.caughtUp(meta.id);
    const state = fixedState(1, [
      { node: 1, state: 'Active', appliedSeq: 40 },
      { node: 2, state: 'Active', appliedSeq: 23 },
      { node: 3, state: 'Dead', appliedSeq: 5 },
      { node: 4, state: 'Initializing', appliedSeq: 0 },
    ]);
    const snaps = await a.openSnapshots(meta, { state });
    expect(snaps.purgeFloor(meta.id, 0, 40, 40)).toBe(23);
    const rec = await snaps.snapshot(meta.id, 0);
    expect(rec.seq).toBe(40);
    // Entries after 23 stay for node 2; the snapshot still records 40.
    expect(await streamState(meta.id)).toMatchObject({ first_seq: 24, last_seq: 40, messages: 17 });
    // A Partial replica that reported a position holds the purge too; the snapshot's seq bounds it from above.
    const partial = fixedState(1, [
      { node: 1, state: 'Active', appliedSeq: 40 },
      { node: 2, state: 'Partial', appliedSeq: 12 },
    ]);
    await a.snapshots!.close();
    const snaps2 = await a.openSnapshots(meta, { state: partial });
    expect(snaps2.purgeFloor(meta.id, 0, 40, 40)).toBe(12);
    expect(snaps2.purgeFloor(meta.id, 0, 8, 40)).toBe(8);
  });

  it('a damaged snapshot object (digest mismatch) is refused, not loaded', { timeout: 120_000 }, async () => {
    const meta = await collection();
    const a = new Node(meta);
    await a.follow(meta.id);
    await writeEntries(meta.id, 20, 6);
    await a.caughtUp(meta.id);
    const rec = await (await a.openSnapshots(meta)).snapshot(meta.id, 0);

    // One chunk of the object rewritten with a byte flipped (moved to the end of its stream).
    const { Objm } = await import('@nats-io/obj');
    const info = await (await new Objm(nc).open(SNAPSHOT_BUCKET)).info(rec.object);
    const objStream = `OBJ_${SNAPSHOT_BUCKET}`;
    const chunkSubject = `$O.${SNAPSHOT_BUCKET}.C.${info!.nuid}`;
    const st = (await jsm.streams.info(objStream)).state;
    let damaged = false;
    for (let seq = st.first_seq; seq <= st.last_seq && !damaged; seq++) {
      const m = await jsm.streams.getMessage(objStream, { seq }).catch(() => null);
      if (m === null || m.subject !== chunkSubject) continue;
      await jsm.streams.deleteMessage(objStream, seq);
      const bytes = new Uint8Array(m.data);
      bytes[10] = bytes[10]! ^ 0xff;
      await jetstream(nc).publish(chunkSubject, bytes);
      damaged = true;
    }
    expect(damaged).toBe(true);

    // A fresh replica cannot bridge the purged log without it: Dead, its shard untouched.
    const b = new Node(meta);
    const snaps = await b.openSnapshots(meta);
    expect(await snaps.prepareReplica(meta.id, 0)).toBe('dead');
    expect(await b.position(meta.id)).toEqual({ applied: 0, following: false, dead: null, purged: false });
    expect(b.points(meta.id).size).toBe(0);
    const line = b.lines.find((l) => l.level === 'error');
    expect(line?.msg).toBe(`cluster: replica of shard ${meta.id}/0 is Dead: its log was purged past applied_seq 0 and its snapshot could not be restored`);
    expect(String(line?.fields.err)).toContain(`snapshot object ${rec.object} refused: received a corrupt object, digests do not match`);
  });

  it('the records and objects of a deleted collection are removed; a live one, or one created after the counter was read, keeps them', { timeout: 120_000 }, async () => {
    const live = await collection();
    const gone = await collection();
    const a = new Node(live);
    a.db.catalog.putSync(gone.name, gone);
    await a.host.handle({ op: 'openShards', meta: gone, shards: [0] });
    await a.follow(live.id);
    await a.host.handle({ op: 'followShards', shards: [[live.id, 0], [gone.id, 0]] });
    await writeEntries(live.id, 5, 9);
    await writeEntries(gone.id, 5, 9);
    await a.caughtUp(live.id);
    await a.caughtUp(gone.id);
    const snaps = await a.openSnapshots(live);
    await snaps.snapshot(live.id, 0);
    await snaps.snapshot(gone.id, 0);
    // The catalog as C1 keeps it: `live` listed, `gone` deleted; the counter is past both.
    await etcdClient.put(`/quiver/catalog/${live.name}`).value(JSON.stringify({ id: live.id, config: {}, deleting: false }));
    await etcdClient.put('/quiver/next-collection-id').value(String(gone.id + 1));
    try {
      const removed = await snaps.collectGarbage();
      expect(removed).toContain(gone.id);
      expect(removed).not.toContain(live.id);
      expect(await record(gone.id)).toBeNull();
      expect((await objects()).filter((o) => o.startsWith(`${gone.id}-`))).toEqual([]);
      expect(await record(live.id)).not.toBeNull();
      expect((await objects()).filter((o) => o.startsWith(`${live.id}-`))).toEqual([`${live.id}-0-5`]);
    } finally {
      await etcdClient.delete().key(`/quiver/catalog/${live.name}`);
      await etcdClient.delete().key('/quiver/next-collection-id');
    }
  });

  it('the schedule snapshots a shard every `snapshot_entries` entries', { timeout: 120_000 }, async () => {
    const meta = await collection();
    const a = new Node(meta);
    await a.follow(meta.id);
    const snaps = await a.openSnapshots(meta, { entries: 15 });
    snaps.start(100);
    await writeEntries(meta.id, 10, 7);
    await a.caughtUp(meta.id);
    // Below the threshold: nothing yet.
    await new Promise((r) => setTimeout(r, 500));
    expect(await record(meta.id)).toBeNull();
    await writeEntries(meta.id, 10, 8);
    await vi.waitFor(async () => expect((await record(meta.id))?.seq).toBeGreaterThanOrEqual(15), { timeout: 30_000, interval: 100 });
    await vi.waitFor(async () => expect((await streamState(meta.id)).first_seq).toBe(((await record(meta.id))?.seq ?? 0) + 1), { timeout: 30_000, interval: 100 });
  });

  it('a round whose collection list throws (the engine stopped answering at shutdown) is logged and skipped, not an unhandled rejection', { timeout: 60_000 }, async () => {
    const meta = await collection();
    const a = new Node(meta);
    let calls = 0;
    const snaps = await a.openSnapshots(meta, {
      collections: () => {
        calls++;
        throw new Error('Engine not initialized');
      },
    });
    snaps.start(20);
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(3), { timeout: 20_000, interval: 20 });
    expect(a.lines.find((l) => l.level === 'warn' && l.msg === 'cluster: snapshot round skipped; next round retries')?.fields).toEqual({ err: 'Error: Engine not initialized' });
  });
});
