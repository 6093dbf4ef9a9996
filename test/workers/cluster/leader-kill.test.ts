// Fault scenario 3 of the cluster suite, narrowed to the apply path: the stream leader's
// nats-server is killed (kill -9) while writers publish to two shard streams and three replicas
// (each a ShardHost with its own LMDB and apply loops, in this process) follow them; the server
// is restarted later. Each replica must end at every stream's last sequence holding exactly the
// points the final streams hold, each in the version (sequence) of the entry that wrote it: a
// replica that applied a sequence whose content the log later replaced, or skipped one, differs;
// its log digest (applier.ts) must be the final stream's.
// One replica is connected to the killed server only (it learns the others from it), as a node
// whose workers sat on that server. After the restart every replica's apply loops are started
// again and again while the restarted server catches up: nats-server 2.9 places each new R1
// consumer on any of the stream's peers (seen: 12 ordered consumers of one stream spread over all
// three servers), so some read from the server that was just killed. LEADER_KILL_RUNS repeats it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShardLog } from '../../../src/shared/cluster/shard-log.js';
import { openDb, type QuiverDb } from '../../../src/shared/db.js';
import { appliedSeqKey, decodeEntry, streamName, type LoggedWrite } from '../../../src/shared/log-entry.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';
import { LogFollower } from '../../../src/workers/cluster/apply-loop.js';
import { logDigestKey, nextLogDigest } from '../../../src/workers/cluster/applier.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

const SHARDS = 2;
const REPLICAS = 3;
const WRITERS = 6;
const LOAD_MS = 14_000;
const KILL_AT_MS = 3_000;
const RESTART_AT_MS = 9_000;
const RUNS = Number(process.env.LEADER_KILL_RUNS ?? 1);

const meta: CollectionMeta = {
  id: 1,
  name: 'leader-kill',
  created_at: new Date(0).toISOString(),
  config: { vectors: { '': { size: 2, distance: 'Dot' } }, sparse_vectors: {}, shard_number: SHARDS, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
};

const upsert = (ids: number[]): LoggedWrite => ({
  op: 'upsert',
  batch: { ids, payloads: ids.map((id) => ({ id })), vectors: { '': { data: new Float32Array(ids.flatMap((id) => [id, 1])), present: null } }, sparse: {} },
  condition: { mode: 'upsert', updateFilter: null },
});

interface Replica {
  dir: string;
  db: QuiverDb;
  host: ShardHost;
  follower: LogFollower;
}

async function openReplica(servers: string[]): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-leader-kill-'));
  const db = openDb(dir);
  db.catalog.putSync(meta.name, meta);
  const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
  host.loadAll();
  const follower = await LogFollower.connect(servers);
  host.startFollowing(follower);
  await host.handle({ op: 'followShards', shards: Array.from({ length: SHARDS }, (_, s) => [meta.id, s] as [number, number]) });
  return { dir, db, host, follower };
}

async function closeReplica(r: Replica): Promise<void> {
  await r.host.handle({ op: 'saveIndexes' }).catch(() => undefined);
  await r.follower.close().catch(() => undefined);
  await r.db.root.close();
  rmSync(r.dir, { recursive: true, force: true });
}

/** Every upserted id of each shard's stream with the sequence that wrote it (ids are written once), and each stream's log digest. */
async function streamContent(nats: NatsCluster): Promise<{ last: number[]; ids: Map<number, number>[]; digests: number[] }> {
  const nc = await nats.connect();
  try {
    const js = jetstream(nc);
    const jsm = await jetstreamManager(nc);
    const last: number[] = [];
    const ids: Map<number, number>[] = [];
    const digests: number[] = [];
    for (let s = 0; s < SHARDS; s++) {
      digests.push(0);
      const info = await jsm.streams.info(streamName(meta.id, s));
      last.push(info.state.last_seq);
      const m = new Map<number, number>();
      ids.push(m);
      if (info.state.messages === 0) continue;
      const msgs = await (await js.consumers.get(streamName(meta.id, s))).consume();
      for await (const msg of msgs) {
        digests[s] = nextLogDigest(digests[s]!, msg.seq, msg.data);
        const w = decodeEntry(msg.data);
        if (w.op === 'upsert') for (const id of w.batch.ids) m.set(id as number, msg.seq);
        if (msg.seq >= info.state.last_seq) break;
      }
    }
    return { last, ids, digests };
  } finally {
    await nc.close();
  }
}

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe("the stream leader's nats-server killed under writes", () => {
  for (let run = 1; run <= RUNS; run++) {
    it(`every replica ends with exactly the final streams' points, in their versions (run ${run})`, { timeout: 240_000 }, async () => {
      const nats = await startNats(3);
      const replicas: Replica[] = [];
      const logs: ShardLog[] = [];
      cleanup = async () => {
        for (const r of replicas) await closeReplica(r);
        for (const l of logs) await l.close();
        await nats.close();
      };
      const setup = await ShardLog.open({ servers: nats.nodes.map((n) => n.url), replicas: 3 });
      logs.push(setup);
      await setup.createStreams(meta.id, SHARDS);
      const leader = (await nats.streamLeader(streamName(meta.id, 0)))!;
      // Replica 0 and one writer sit on the server that gets killed; the others anywhere.
      replicas.push(await openReplica([nats.nodes[leader]!.url]));
      for (let i = 1; i < REPLICAS; i++) replicas.push(await openReplica(nats.nodes.map((n) => n.url)));
      logs.push(await ShardLog.open({ servers: [nats.nodes[leader]!.url], replicas: 3 }));
      logs.push(await ShardLog.open({ servers: nats.nodes.map((n) => n.url), replicas: 3 }));

      let nextId = 0;
      let request = 0;
      const acked = new Set<number>();
      let failed = 0;
      const t0 = Date.now();
      const writer = async (k: number): Promise<void> => {
        const log = logs[1 + (k % 2)]!;
        while (Date.now() - t0 < LOAD_MS) {
          const ids = [nextId++, nextId++];
          const shard = k % SHARDS;
          try {
            await log.publish(meta.id, shard, ++request, upsert(ids));
            for (const id of ids) acked.add(id);
          } catch {
            failed++;
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, k) => writer(k));
      await new Promise((r) => setTimeout(r, KILL_AT_MS));
      await nats.kill(leader);
      await new Promise((r) => setTimeout(r, RESTART_AT_MS - KILL_AT_MS));
      await nats.start(leader);
      // New consumers while the restarted server catches up: each lands on a stream peer NATS
      // picks (an R1 consumer may be placed on any of them, the restarted one included).
      const all = Array.from({ length: SHARDS }, (_, s) => [meta.id, s] as [number, number]);
      while (Date.now() - t0 < LOAD_MS) {
        for (const r of replicas) {
          await r.host.handle({ op: 'followShards', shards: [] });
          await r.host.handle({ op: 'followShards', shards: all });
        }
        await new Promise((r) => setTimeout(r, 300));
      }
      await Promise.all(writers);

      const { last, ids, digests } = await streamContent(nats);
      // Every replica reaches every stream's end (positions are flushed ones).
      for (const r of replicas) {
        for (let s = 0; s < SHARDS; s++) {
          await vi.waitFor(async () => expect((await r.host.handle({ op: 'logPosition', collection: meta.id, shard: s })).applied).toBe(last[s]), { timeout: 90_000, interval: 200 });
        }
      }
      for (const a of acked) expect(ids.some((m) => m.has(a)), `acknowledged id ${a} in a stream`).toBe(true);
      const report: string[] = [];
      for (const [i, r] of replicas.entries()) {
        for (let s = 0; s < SHARDS; s++) {
          expect(r.db.meta.get(appliedSeqKey(meta.id, s))).toBe(last[s]);
          // The content it applied, entry by entry, is the stream's.
          if (r.db.meta.get(logDigestKey(meta.id, s)) !== digests[s]) report.push(`replica ${i} shard ${s}: applied other log content than the stream holds`);
          const disk = new Map<number, number>();
          for (const { key, value } of r.db.points.getRange({ start: [meta.id, s], end: [meta.id, s + 1] })) disk.set(key[2] as number, value.v);
          const missing = [...ids[s]!].filter(([id]) => !disk.has(id)).map(([id, seq]) => `${id}@${seq}`);
          const extra = [...disk].filter(([id]) => !ids[s]!.has(id)).map(([id, v]) => `${id}@${v}`);
          const version = [...disk].filter(([id, v]) => ids[s]!.has(id) && ids[s]!.get(id) !== v).map(([id, v]) => `${id}@${v} (stream ${ids[s]!.get(id)})`);
          if (missing.length + extra.length + version.length > 0) report.push(`replica ${i} shard ${s}: missing ${missing.slice(0, 10).join(',')} extra ${extra.slice(0, 10).join(',')} other version ${version.slice(0, 10).join(',')}`);
        }
      }
      console.log(`leader-kill run ${run}: last ${last.join(',')}, acked ${acked.size}, failed publishes ${failed}, differences: ${report.length}`);
      expect(report).toEqual([]);
    });
  }
});
