// A replica fed a log that is not its stream's (src/workers/cluster/apply-loop.ts, the message-id
// check), on a real nats-server and a real shard with LMDB. nats-server 2.9.10 did this in a fault
// run: a stream leader frozen and resumed kept a write at sequence N that never reached a majority
// and served it to a consumer, while the stream holds that write (retried by its client) at N + 1
// and another write at N. Here the same shape is made by replacing the stream under the replica:
// it applied write A at 1; the stream then holds B at 1 and A at 2. The replica must find A again
// at 2, ask the stream what 1 holds, and mark the shard Dead instead of applying on. And a stream
// that really holds one write twice (JetStream's duplicate window passed) is applied on, as is one
// whose earlier sequence was purged since (nothing left to compare with). A replica that never
// meets the write again is found by its periodic look at what the stream leader holds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type QuiverDb } from '../../../src/shared/db.js';
import { encodeEntry, streamName, subjectOf, type LoggedWrite } from '../../../src/shared/log-entry.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';
import { LogFollower } from '../../../src/workers/cluster/apply-loop.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { startNats, type NatsCluster } from '../../helpers/nats.js';

const meta: CollectionMeta = {
  id: 3,
  name: 'other-log',
  created_at: new Date(0).toISOString(),
  config: { vectors: { '': { size: 2, distance: 'Dot' } }, sparse_vectors: {}, shard_number: 1, hnsw_config: { ...DEFAULT_HNSW }, on_disk_payload: false, payload_schema: {} },
};

const upsert = (id: number): LoggedWrite => ({
  op: 'upsert',
  batch: { ids: [id], payloads: [{ id }], vectors: { '': { data: new Float32Array([id, 1]), present: null } }, sparse: {} },
  condition: { mode: 'upsert', updateFilter: null },
});

let nats: NatsCluster;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;
const opened: { dir: string; db: QuiverDb; host: ShardHost; follower: LogFollower }[] = [];

beforeAll(async () => {
  nats = await startNats(1);
  nc = await nats.connect();
  js = jetstream(nc);
  jsm = await jetstreamManager(nc);
});

afterAll(async () => {
  await nc?.close();
  await nats?.close();
});

afterEach(async () => {
  for (const r of opened.splice(0)) {
    await r.follower.close().catch(() => undefined);
    await r.db.root.close();
    rmSync(r.dir, { recursive: true, force: true });
  }
  await jsm.streams.delete(streamName(meta.id, 0)).catch(() => undefined);
});

/** The shard's stream, as shard-log.ts makes it (with the duplicate window given). */
async function createStream(duplicateWindowMs = 120_000): Promise<void> {
  await jsm.streams.add({ name: streamName(meta.id, 0), subjects: [subjectOf(meta.id, 0)], num_replicas: 1, duplicate_window: duplicateWindowMs * 1e6, allow_direct: true });
}

async function publish(id: number, msgId: string): Promise<number> {
  const h = headers();
  h.set('Nats-Msg-Id', msgId);
  return (await js.publish(subjectOf(meta.id, 0), encodeEntry(upsert(id)), { headers: h })).seq;
}

async function follow(): Promise<ShardHost> {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-other-log-'));
  const db = openDb(dir);
  db.catalog.putSync(meta.name, meta);
  const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
  host.loadAll();
  const follower = await LogFollower.connect([nats.nodes[0]!.url]);
  opened.push({ dir, db, host, follower });
  host.startFollowing(follower);
  await host.handle({ op: 'followShards', shards: [[meta.id, 0]] });
  return host;
}

type Position = { applied: number; dead: string | null };

async function position(host: ShardHost): Promise<Position> {
  return (await host.handle({ op: 'logPosition', collection: meta.id, shard: 0 })) as Position;
}

async function until(host: ShardHost, what: string, ok: (p: Position) => boolean, ms = 15_000): Promise<Position> {
  const end = Date.now() + ms;
  for (;;) {
    const p = await position(host);
    if (ok(p)) return p;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a replica fed a log that is not its stream', () => {
  it('finds a write it applied at another sequence, and the shard goes Dead there', async () => {
    await createStream();
    expect(await publish(1, 'n.1.0')).toBe(1);
    const host = await follow();
    await until(host, 'write A applied', (p) => p.applied === 1);
    // The stream now holds B at 1 and A (the same message id) at 2.
    await jsm.streams.delete(streamName(meta.id, 0));
    await createStream();
    expect(await publish(2, 'n.2.0')).toBe(1);
    expect(await publish(1, 'n.1.0')).toBe(2);
    const p = await until(host, 'the shard marked Dead', (q) => q.dead !== null);
    expect(p.dead).toMatch(/shard 3\/0 is Dead: it applied write n\.1\.0 at sequence 1, where its log holds n\.2\.0, and the log now delivers it at 2: this replica was fed a log that is not the stream's/);
    // Nothing past the clash was applied, and the shard refuses to serve.
    expect(p.applied).toBe(1);
    await expect(host.handle({ op: 'count', collection: meta.id, shard: 0, filter: null, exact: true })).rejects.toThrow(/is Dead/);
  }, 40_000);

  it('applies a write the stream really holds twice, and goes on', async () => {
    // A duplicate window of 100 ms: the same message id published again later is stored again.
    await createStream(100);
    expect(await publish(1, 'n.1.0')).toBe(1);
    const host = await follow();
    await until(host, 'write A applied', (p) => p.applied === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await publish(1, 'n.1.0')).toBe(2);
    expect(await publish(2, 'n.2.0')).toBe(3);
    await until(host, 'both applied', (q) => q.applied === 3);
    // And the periodic look at the stream leader (every 5 s) agrees with what was applied.
    await new Promise((r) => setTimeout(r, 6000));
    expect((await position(host)).dead).toBeNull();
  }, 40_000);

  it('finds a write it applied where the stream leader holds another, without meeting it again', async () => {
    await createStream();
    expect(await publish(1, 'n.1.0')).toBe(1);
    expect(await publish(2, 'n.2.0')).toBe(2);
    const host = await follow();
    await until(host, 'A and B applied', (p) => p.applied === 2);
    // Before the replica's first look at the leader (5 s after it started): the stream now holds
    // C at 1 and B at 2, so no write ever arrives at a second sequence.
    await jsm.streams.delete(streamName(meta.id, 0));
    await createStream();
    expect(await publish(9, 'n.9.0')).toBe(1);
    expect(await publish(2, 'n.2.0')).toBe(2);
    const p = await until(host, 'the shard marked Dead', (q) => q.dead !== null, 20_000);
    expect(p.dead).toMatch(/shard 3\/0 is Dead: it applied write n\.1\.0 at sequence 1, where its log holds n\.9\.0 \(asked twice, 2000 ms apart\): this replica was fed a log that is not the stream's/);
    expect(p.applied).toBe(2);
  }, 40_000);

  it('looks at every entry applied since the last look, not a sample of them', async () => {
    await createStream();
    for (let id = 1; id <= 40; id++) expect(await publish(id, `n.${id}.0`)).toBe(id);
    const host = await follow();
    await until(host, 'all 40 applied', (p) => p.applied === 40);
    // Only sequence 1 now holds another write: a spread of 16 of the 40 would pass it by.
    await jsm.streams.delete(streamName(meta.id, 0));
    await createStream();
    expect(await publish(99, 'n.99.0')).toBe(1);
    for (let id = 2; id <= 40; id++) expect(await publish(id, `n.${id}.0`)).toBe(id);
    const p = await until(host, 'the shard marked Dead', (q) => q.dead !== null, 20_000);
    expect(p.dead).toMatch(/it applied write n\.1\.0 at sequence 1, where its log holds n\.99\.0 \(asked twice/);
  }, 40_000);

  it('keeps the entries it could not check while the stream had no answer, and checks them at the next look', async () => {
    await createStream();
    expect(await publish(1, 'n.1.0')).toBe(1);
    expect(await publish(2, 'n.2.0')).toBe(2);
    const host = await follow();
    const started = Date.now();
    await until(host, 'A and B applied', (p) => p.applied === 2);
    // No stream to ask across the first look (5 s after the start); then it holds C at 1, B at 2.
    await jsm.streams.delete(streamName(meta.id, 0));
    await new Promise((r) => setTimeout(r, 6000 - (Date.now() - started)));
    expect((await position(host)).dead).toBeNull();
    await createStream();
    expect(await publish(9, 'n.9.0')).toBe(1);
    expect(await publish(2, 'n.2.0')).toBe(2);
    const p = await until(host, 'the shard marked Dead', (q) => q.dead !== null, 20_000);
    expect(p.dead).toMatch(/it applied write n\.1\.0 at sequence 1, where its log holds n\.9\.0 \(asked twice/);
  }, 40_000);

  it('concludes nothing when the earlier sequence is purged (below a snapshot), and goes on', async () => {
    await createStream(100);
    expect(await publish(1, 'n.1.0')).toBe(1);
    const host = await follow();
    await until(host, 'write A applied', (p) => p.applied === 1);
    expect(await publish(2, 'n.2.0')).toBe(2);
    await until(host, 'write B applied', (p) => p.applied === 2);
    await jsm.streams.purge(streamName(meta.id, 0), { seq: 2 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await publish(1, 'n.1.0')).toBe(3);
    const p = await until(host, 'A applied again', (q) => q.applied === 3);
    expect(p.dead).toBeNull();
  }, 40_000);
});
