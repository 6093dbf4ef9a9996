// The apply side of a shard's write log (src/workers/cluster/applier.ts) on a real shard and LMDB,
// no NATS: entries apply only in unbroken sequence. A batch with a gap applies up to the gap and no
// further, so applied_seq never claims an entry the shard never saw; the entries after it apply
// once the missing one arrives (the apply loop reads again from applied_seq + 1). And the host's
// awaitApplied (wait=true) for a shard this node has not been told to follow yet waits for it.
// The log digest is the same for the same entries however they were batched and across a reload,
// differs for other content at a sequence, and is unknown where the replica did not apply its
// whole log itself (applied_seq set by a snapshot restore).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDb, type QuiverDb } from '../../../src/shared/db.js';
import { appliedSeqKey, encodeEntry, type LoggedWrite } from '../../../src/shared/log-entry.js';
import { UNCONDITIONAL } from '../../../src/shared/shard-results.js';
import { logDigestKey, logDigestSeqKey, nextLogDigest, ShardApplier, type LogEntry } from '../../../src/workers/cluster/applier.js';
import type { Shard } from '../../../src/workers/shard/shard.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { batch, metaOf } from '../shard/helpers.js';

const dirs: string[] = [];
const dbs: QuiverDb[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.root.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const meta = metaOf(2, 'Dot');

function hostOnDisk(): { db: QuiverDb; host: ShardHost } {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-applier-'));
  dirs.push(dir);
  const db = openDb(dir);
  dbs.push(db);
  db.catalog.putSync(meta.name, meta);
  const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
  host.loadAll();
  return { db, host };
}

/** Cluster mode's follow hook, without NATS: it hands out the shard itself and the applier it made. */
function follows(host: ShardHost, db: QuiverDb): { current: () => Shard | undefined; applier: ShardApplier | null } {
  const seen: { current: () => Shard | undefined; applier: ShardApplier | null } = { current: () => undefined, applier: null };
  host.startFollowing({
    follow(_db, collection, shard, cur) {
      seen.current = cur;
      seen.applier = new ShardApplier(db, collection, shard);
      return { applier: seen.applier, stop() {}, exclusive: (fn) => fn() };
    },
  });
  return seen;
}

/** A shard as a worker holds it, reached through the host's follow hook. */
async function shardOnDisk(): Promise<{ db: QuiverDb; shard: () => Shard | undefined }> {
  const { db, host } = hostOnDisk();
  const seen = follows(host, db);
  await host.handle({ op: 'followShards', shards: [[meta.id, 0]] });
  expect(seen.applier).not.toBeNull();
  return { db, shard: seen.current };
}

const upsertOf = (id: number): LogEntry => {
  const w: LoggedWrite = { op: 'upsert', batch: batch([id], [[id, 1]]), condition: UNCONDITIONAL };
  return { seq: id, data: encodeEntry(w) };
};

const ids = (s: Shard): number[] => s.retrieve([1, 2, 3, 4, 5, 6, 7], { kind: 'none' }, { kind: 'none' }).map((r) => Number(r.id)).sort((a, b) => a - b);

it('stops at a gap: applied_seq and the points end before the missing entry, and go on once it comes', async () => {
  const { db, shard } = await shardOnDisk();
  const a = new ShardApplier(db, meta.id, 0);
  await a.apply(shard()!, [upsertOf(1), upsertOf(2), upsertOf(4), upsertOf(5)]);
  expect(a.applied).toBe(2);
  expect(db.meta.get(appliedSeqKey(meta.id, 0))).toBe(2);
  expect(ids(shard()!)).toEqual([1, 2]);

  // Read again from applied_seq + 1: 3 arrives, then what follows it (4 again, already received once).
  await a.apply(shard()!, [upsertOf(3), upsertOf(4), upsertOf(5)]);
  expect(a.applied).toBe(5);
  expect(db.meta.get(appliedSeqKey(meta.id, 0))).toBe(5);
  expect(ids(shard()!)).toEqual([1, 2, 3, 4, 5]);

  // Entries at or below applied_seq change nothing; one that starts past applied_seq + 1 applies nothing.
  await a.apply(shard()!, [upsertOf(5), upsertOf(7)]);
  expect(a.applied).toBe(5);
  expect(ids(shard()!)).toEqual([1, 2, 3, 4, 5]);
});

it('wait=true for a shard not followed yet waits for followShards, within its deadline', async () => {
  const { db, host } = hostOnDisk();
  const seen = follows(host, db);
  const waiting = host.handle({ op: 'awaitApplied', collection: meta.id, shard: 0, seq: 1, timeoutMs: 10_000 });
  let settled = false;
  void waiting.then(() => (settled = true), () => (settled = true));
  await new Promise((r) => setTimeout(r, 100));
  expect(settled).toBe(false);
  await host.handle({ op: 'followShards', shards: [[meta.id, 0]] });
  await seen.applier!.apply(seen.current()!, [upsertOf(1)]);
  await expect(waiting).resolves.toMatchObject({ result: { applied: 1 } });

  // Never followed: a retryable 503 once the deadline passes, not a 412.
  const other = hostOnDisk();
  follows(other.host, other.db);
  await expect(other.host.handle({ op: 'awaitApplied', collection: meta.id, shard: 0, seq: 1, timeoutMs: 100 })).rejects.toMatchObject({
    code: 'ShardUnavailable',
    message: expect.stringContaining('does not follow its write log yet') as unknown,
  });
});

it('outside cluster mode awaitApplied is refused at once (412: no write log here)', async () => {
  const { host } = hostOnDisk();
  await expect(host.handle({ op: 'awaitApplied', collection: meta.id, shard: 0, seq: 1, timeoutMs: 10_000 })).rejects.toMatchObject({
    code: 'PreconditionFailed',
    message: expect.stringContaining('does not apply a write log (not in cluster mode)') as unknown,
  });
});

it('the log digest: one chain over the entries applied, batched any way, kept across a reload, unknown after a restore', async () => {
  const entries = [1, 2, 3, 4, 5].map(upsertOf);
  const want = entries.reduce((d, e) => nextLogDigest(d, e.seq, e.data), 0);

  const one = await shardOnDisk();
  const a = new ShardApplier(one.db, meta.id, 0);
  expect(a.digest).toBe(0);
  await a.apply(one.shard()!, entries.slice(0, 2));
  // A gap and entries received twice change nothing in it.
  await a.apply(one.shard()!, [entries[1]!, entries[3]!]);
  await a.apply(one.shard()!, entries.slice(2));
  expect(a.digest).toBe(want);
  expect(one.db.meta.get(logDigestKey(meta.id, 0))).toBe(want);
  expect(one.db.meta.get(logDigestSeqKey(meta.id, 0))).toBe(5);
  // Read back by the next applier of the shard (a restarted worker).
  expect(new ShardApplier(one.db, meta.id, 0).digest).toBe(want);

  // Other content at sequence 3 (the same id, another vector): another digest.
  const two = await shardOnDisk();
  const b = new ShardApplier(two.db, meta.id, 0);
  const other: LogEntry = { seq: 3, data: encodeEntry({ op: 'upsert', batch: batch([3], [[3, 2]]), condition: UNCONDITIONAL }) };
  await b.apply(two.shard()!, [entries[0]!, entries[1]!, other, entries[3]!, entries[4]!]);
  expect(b.applied).toBe(5);
  expect(b.digest).not.toBe(want);

  // applied_seq moved without this replica applying the entries (a snapshot installed): unknown,
  // and it stays unknown as the log goes on (nothing is written that could match later).
  await one.db.meta.put(appliedSeqKey(meta.id, 0), 9);
  const c = new ShardApplier(one.db, meta.id, 0);
  expect(c.digest).toBeNull();
  await c.apply(one.shard()!, [upsertOf(10)]);
  expect(c.digest).toBeNull();
  expect(one.db.meta.get(logDigestSeqKey(meta.id, 0))).toBe(5);
  expect(new ShardApplier(one.db, meta.id, 0).digest).toBeNull();
});
