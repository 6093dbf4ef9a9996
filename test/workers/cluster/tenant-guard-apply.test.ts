// A tenant binding's guard on the worker's two ways in (no thread, real LMDB): the shard host
// hands `guard` and retrieve's `filter` to the shard, and a guarded write in a shard's log
// (cluster mode) is refused at apply time with nothing written, applied_seq moving past it, and
// the refusal reaching the writer waiting on awaitApplied with its code, across the wire form.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDb, type QuiverDb } from '../../../src/shared/db.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { appliedSeqKey, encodeEntry, type LoggedWrite } from '../../../src/shared/log-entry.js';
import type { TenantGuard } from '../../../src/shared/protocol.js';
import { UNCONDITIONAL } from '../../../src/shared/shard-results.js';
import { ShardApplier, type LogEntry } from '../../../src/workers/cluster/applier.js';
import type { Shard } from '../../../src/workers/shard/shard.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { batch, metaOf } from '../shard/helpers.js';

const meta = metaOf(2, 'Dot');
const guard: TenantGuard = { filter: { must: [{ key: 'tenant', match: { value: 'acme' } }] }, rule: 'tenant acme' };
const at = { collection: meta.id, shard: 0 };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function host(): { db: QuiverDb; host: ShardHost } {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-tenant-'));
  const db = openDb(dir);
  cleanups.push(async () => {
    await db.root.close();
    rmSync(dir, { recursive: true, force: true });
  });
  db.catalog.putSync(meta.name, meta);
  const h = new ShardHost(0, 1, db, join(dir, 'hnsw'));
  h.loadAll();
  return { db, host: h };
}

const entry = (seq: number, w: LoggedWrite): LogEntry => ({ seq, data: encodeEntry(w) });
const payloads = (s: Shard): unknown[] => s.retrieve([1, 2, 3], { kind: 'all' }, { kind: 'none' }).map((r) => r.payload);

it('the shard host passes guard and filter on: a refused write answers Forbidden and writes nothing', async () => {
  const { host: h } = host();
  await h.handle({ op: 'upsert', ...at, opId: 1, wait: true, batch: batch([1, 2], [[1, 0], [0, 1]], [{ tenant: 'acme' }, { tenant: 'beta' }]), condition: UNCONDITIONAL });
  const read = { op: 'retrieve' as const, ...at, ids: [1, 2], withPayload: { kind: 'none' as const }, withVector: { kind: 'none' as const } };
  expect(await h.handle({ ...read, filter: guard.filter })).toEqual([{ id: 1 }]);
  expect(await h.handle(read)).toEqual([{ id: 1 }, { id: 2 }]);
  const err = await h.handle({ op: 'payload', ...at, opId: 2, wait: true, change: { kind: 'clear' }, ids: [2], filter: null, guard }).catch((e: unknown) => e);
  // As it crosses the thread boundary (entry.ts): code and message kept.
  expect(QuiverError.fromWire(QuiverError.toWire(err))).toMatchObject({ code: 'Forbidden', message: 'Forbidden: point 2 belongs outside tenant acme' });
  expect(await h.handle({ op: 'delete', ...at, opId: 3, wait: true, ids: [1, 2], filter: null, guard })).toEqual({ deleted: 1 });
  expect(await h.handle(read)).toEqual([{ id: 2 }]);
});

it('a guarded log entry is refused at apply time alike: the waiting writer hears Forbidden, the shard is unchanged, later entries apply', async () => {
  const { db: d, host: h } = host();
  let applier: ShardApplier | null = null;
  let current: () => Shard | undefined = () => undefined;
  h.startFollowing({
    follow(_db, collection, shard, cur) {
      current = cur;
      applier = new ShardApplier(d, collection, shard);
      return { applier, stop() {}, exclusive: (fn) => fn() };
    },
  });
  await h.handle({ op: 'followShards', shards: [[meta.id, 0]] });
  const a = applier as unknown as ShardApplier;
  await a.apply(current()!, [entry(1, { op: 'upsert', batch: batch([1, 2], [[1, 0], [0, 1]], [{ tenant: 'acme' }, { tenant: 'beta' }]), condition: UNCONDITIONAL })]);

  const waiting = h.handle({ op: 'awaitApplied', ...at, seq: 2, timeoutMs: 10_000 }).catch((e: unknown) => e);
  await a.apply(current()!, [
    entry(2, { op: 'upsert', batch: batch([3, 2], [[1, 1], [1, 1]], [{ tenant: 'acme' }, { tenant: 'acme' }]), condition: UNCONDITIONAL, guard }),
    entry(3, { op: 'payload', change: { kind: 'set', payload: { n: 1 }, key: null }, ids: null, filter: { must_not: [{ key: 'x', match: { value: 0 } }] }, guard }),
  ]);
  expect(await waiting).toMatchObject({ code: 'Forbidden', message: 'Forbidden: point 2 belongs outside tenant acme' });
  await expect(h.handle({ op: 'awaitApplied', ...at, seq: 3, timeoutMs: 10_000 })).resolves.toEqual({ result: { applied: 1 } });
  expect(a.applied).toBe(3);
  expect(d.meta.get(appliedSeqKey(meta.id, 0))).toBe(3);
  expect(payloads(current()!)).toEqual([{ tenant: 'acme', n: 1 }, { tenant: 'beta' }]);
});
