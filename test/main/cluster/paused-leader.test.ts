// A stream leader's nats-server paused (SIGSTOP) past a NATS election, then resumed, with a shard
// replica following the stream (the real apply loop over a ShardHost, in this process) on a
// 3-server JetStream cluster started by PID. The writer and the replica are both connected to the
// server that gets paused (given only its URL: the others they learn from it), so each must notice
// the silent connection and move to another server while the pause lasts (src/shared/nats-connection.ts).
// The resumed server may answer with its old state for a moment (a last sequence below what the
// replica applied): the replica must not take that for a log gone backwards. It stays alive,
// applies every entry, and ends at the stream's end.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ShardLog } from '../../../src/shared/cluster/shard-log.js';
import { openDb, type QuiverDb } from '../../../src/shared/db.js';
import { streamName, type LoggedWrite } from '../../../src/shared/log-entry.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';
import { LogFollower } from '../../../src/workers/cluster/apply-loop.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

let nats: NatsCluster;
let log: ShardLog;
let dir: string;
let db: QuiverDb;
let host: ShardHost;
let follower: LogFollower;
let leader: number;

const meta: CollectionMeta = {
  id: 1,
  name: 'paused',
  created_at: new Date(0).toISOString(),
  config: { vectors: { '': { size: 2, distance: 'Dot' } }, sparse_vectors: {}, shard_number: 1, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
};
const stream = streamName(meta.id, 0);
let request = 0;
const write = (id: number): LoggedWrite => ({
  op: 'upsert',
  batch: { ids: [id], payloads: [{ id }], vectors: { '': { data: new Float32Array([id, 1]), present: null } }, sparse: {} },
  condition: { mode: 'upsert', updateFilter: null },
});
const position = () => host.handle({ op: 'logPosition', collection: meta.id, shard: 0 });

describe('a stream leader paused past an election, then resumed', () => {
  beforeAll(async () => {
    nats = await startNats(3);
    const setup = await ShardLog.open({ servers: nats.nodes.map((n) => n.url), replicas: 3 });
    await setup.createStreams(meta.id, 1);
    await setup.close();
    leader = (await nats.streamLeader(stream))!;
    // The deadline is well inside the 12 s pause: writes go on only if the writer leaves the paused server.
    log = await ShardLog.open({ servers: [nats.nodes[leader]!.url], replicas: 3, publishDeadlineMs: 10_000 });
    dir = mkdtempSync(join(tmpdir(), 'quiver-paused-'));
    db = openDb(dir);
    db.catalog.putSync(meta.name, meta);
    host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
    host.loadAll();
    follower = await LogFollower.connect([nats.nodes[leader]!.url]);
    host.startFollowing(follower);
    await host.handle({ op: 'followShards', shards: [[meta.id, 0]] });
  }, 150_000);

  afterAll(async () => {
    await host?.handle({ op: 'saveIndexes' }).catch(() => undefined);
    await follower?.close().catch(() => undefined);
    await log?.close();
    await db?.root.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    await nats?.close();
  });

  it('the replica is never marked Dead and ends at the stream\'s end', { timeout: 180_000 }, async () => {
    for (let i = 0; i < 40; i++) await log.publish(meta.id, 0, ++request, write(i));
    await vi.waitFor(async () => expect((await position()).applied).toBe(40), { timeout: 30_000, interval: 100 });

    expect(await nats.streamLeader(stream)).toBe(leader);
    nats.pause(leader);
    const deadSeen: string[] = [];
    const watching = setInterval(() => {
      void position().then((p) => {
        if (p.dead !== null) deadSeen.push(p.dead);
      });
    }, 200);
    try {
      // Writes go on through a new leader while the old one sleeps.
      for (let i = 40; i < 70; i++) await log.publish(meta.id, 0, ++request, write(i));
      // Applied while the paused server still sleeps: the replica's consumer left it too.
      await vi.waitFor(async () => expect((await position()).applied).toBe(70), { timeout: 10_000, interval: 200 });
      await new Promise((r) => setTimeout(r, 12_000));
      nats.resume(leader);
      // What the resumed server says right away (informative only: it may still hold its old
      // state, or not answer yet).
      const seen = await (async () => {
        const nc = await connect({ servers: [nats.nodes[leader]!.url], timeout: 5000, ignoreClusterUpdates: true });
        try {
          return (await (await jetstreamManager(nc, { timeout: 2000 })).streams.info(stream)).state.last_seq;
        } finally {
          await nc.close();
        }
      })().catch((err: unknown) => String(err));
      console.log(`resumed server answered last_seq ${String(seen)} (the replica applied 70)`);
      for (let i = 70; i < 80; i++) await log.publish(meta.id, 0, ++request, write(i));
      // Longer than BEHIND_CONFIRM_MS: a stale answer would have turned into Dead by now.
      await new Promise((r) => setTimeout(r, 20_000));
      await vi.waitFor(async () => expect((await position()).applied).toBe(80), { timeout: 60_000, interval: 200 });
    } finally {
      clearInterval(watching);
    }
    expect(deadSeen).toEqual([]);
    expect(await position()).toEqual({ applied: 80, following: true, dead: null, purged: false });
    expect(await nats.lastSeq(stream)).toBe(80);
  });
});
