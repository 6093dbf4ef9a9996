// A shard snapshot (src/workers/cluster/shard-snapshot.ts) through the ShardHost ops, no NATS:
// snapshotShard writes the records and applied_seq of one read transaction with the graphs that
// cover them; restoreShard on another data dir replaces what was there with exactly that (same
// ids, versions, write sequences, vectors, payloads, applied_seq) and reads the graphs back rather
// than rebuilding them; graphs behind the records are left out and rebuilt; a damaged, cut or
// foreign file is refused with the shard unchanged.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, shardRange, type QuiverDb, type StoredPoint } from '../../../src/shared/db.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { appliedSeqKey } from '../../../src/shared/log-entry.js';
import { type RequestOf } from '../../../src/shared/protocol.js';
import { UNCONDITIONAL } from '../../../src/shared/shard-results.js';
import type { CollectionMeta, PointId } from '../../../src/shared/types.js';
import { ShardCapture } from '../../../src/workers/cluster/shard-snapshot.js';
import { GraphSnapshots } from '../../../src/workers/shard/graph-snapshots.js';
import { ShardHost } from '../../../src/workers/shard-host.js';
import { batch, metaOf } from '../shard/helpers.js';

const dirs: string[] = [];
const dbs: QuiverDb[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.root.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const meta: CollectionMeta = { ...metaOf(4, 'Cosine'), config: { ...metaOf(4, 'Cosine').config, payload_schema: { color: { type: 'keyword' } } } };
const at = { collection: meta.id, shard: 0 } as const;

function node(): { dir: string; db: QuiverDb; host: ShardHost } {
  const dir = mkdtempSync(join(tmpdir(), 'quiver-snap-'));
  dirs.push(dir);
  const db = openDb(dir);
  dbs.push(db);
  db.catalog.putSync(meta.name, meta);
  const host = new ShardHost(0, 1, db, join(dir, 'hnsw'));
  host.loadAll();
  return { dir, db, host };
}

let opId = 0;
async function upsert(host: ShardHost, ids: number[], seed: number): Promise<void> {
  const vectors = ids.map((id) => [Math.sin(id + seed), Math.cos(id * 3 + seed), (id % 7) - 3, 1 + seed]);
  const b = batch(ids, vectors);
  b.payloads = ids.map((id) => ({ color: id % 2 === 0 ? 'red' : 'blue', n: id + seed }));
  await host.handle({ op: 'upsert', ...at, opId: ++opId, wait: true, batch: b, condition: UNCONDITIONAL });
}

function records(db: QuiverDb): Map<PointId, StoredPoint> {
  const { start, end } = shardRange(meta.id, 0);
  const out = new Map<PointId, StoredPoint>();
  for (const { key, value } of db.points.getRange({ start, end })) out.set(key[2], value);
  return out;
}

const all: RequestOf<'scroll'> = { op: 'scroll', ...at, offset: null, limit: 10_000, filter: null, withPayload: { kind: 'all' }, withVector: { kind: 'all' } };
const red: RequestOf<'count'> = { op: 'count', ...at, filter: { must: [{ key: 'color', match: { value: 'red' } }] }, exact: true };

async function source(): Promise<{ db: QuiverDb; host: ShardHost; file: string }> {
  const a = node();
  await upsert(a.host, Array.from({ length: 300 }, (_, i) => i), 0);
  await upsert(a.host, [5, 6, 7], 10); // newer versions
  await a.host.handle({ op: 'delete', ...at, opId: ++opId, wait: true, ids: [8, 9], filter: null });
  // The log position the records stand for (the apply loop commits it with them).
  await a.db.meta.put(appliedSeqKey(meta.id, 0), 4242);
  return { db: a.db, host: a.host, file: join(a.dir, 'snap.qvsnap') };
}

async function refused(p: Promise<unknown>): Promise<QuiverError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(QuiverError);
  return err as QuiverError;
}

describe('shard snapshots', () => {
  it('restores on another node exactly what the source held at its applied_seq, graphs read back', async () => {
    const a = await source();
    const taken = await a.host.handle({ op: 'snapshotShard', ...at, file: a.file });
    expect(taken).toMatchObject({ seq: 4242, points: 298, graphs: true });
    expect(taken.bytes).toBe(statSync(a.file).size);

    const b = node();
    await upsert(b.host, [1, 2, 1000, 1001], 99); // local content the restore replaces
    await b.db.meta.put(appliedSeqKey(meta.id, 0), 17);
    const restored = await b.host.handle({ op: 'restoreShard', ...at, file: a.file });
    expect(restored).toEqual({ seq: 4242, points: 298, graphs: true });

    expect(b.db.meta.get(appliedSeqKey(meta.id, 0))).toBe(4242);
    // Same ids, versions, write sequences, vectors and payloads as stored at the source.
    expect(records(b.db)).toEqual(records(a.db));
    expect(await b.host.handle(all)).toEqual(await a.host.handle(all));
    // The payload index is the collection's, rebuilt at load.
    expect(await b.host.handle(red)).toBe(await a.host.handle(red));
    const search: RequestOf<'search'> = {
      op: 'search',
      ...at,
      searches: [{ vector: '', query: new Float32Array([0.5, 0.5, 0.5, 0.5]), sparse: null, k: 10, ef: 64, exact: false, quantization: null, scoreThreshold: null, filter: null, exclude: [], only: null, withPayload: { kind: 'none' }, withVector: { kind: 'none' } }],
    };
    expect(await b.host.handle(search)).toEqual(await a.host.handle(search));
    const ping = await b.host.handle({ op: 'ping' });
    expect(ping.loads.at(-1)).toMatchObject({ collection: meta.id, shard: 0, points: 298, graphsRead: 1, graphsRebuilt: 0, replayed: 0 });
    expect(await b.host.handle({ op: 'logPosition', ...at })).toEqual({ applied: 4242, following: false, dead: null, purged: false });
  });

  it('leaves out graphs that do not cover the records, and the restore rebuilds them', async () => {
    const a = await source();
    await a.host.handle({ op: 'saveIndexes' }); // graphs saved now...
    const host = new ShardHost(0, 1, a.db, join(a.file, '..', 'hnsw'));
    host.loadAll();
    await upsert(host, [500, 501], 0); // ...and records written after them
    const capture = ShardCapture.take(a.db, new GraphSnapshots(join(a.file, '..', 'hnsw'), meta.id, 0), meta.id, 0, {}, `${a.file}.d`);
    expect(capture.manifest).not.toBeNull();
    expect(await capture.write(a.file)).toMatchObject({ points: 300, graphs: false });

    const b = node();
    expect(await b.host.handle({ op: 'restoreShard', ...at, file: a.file })).toEqual({ seq: 4242, points: 300, graphs: false });
    expect(records(b.db)).toEqual(records(a.db));
    expect((await b.host.handle({ op: 'ping' })).loads.at(-1)).toMatchObject({ points: 300, graphsRead: 0, graphsRebuilt: 1 });
    expect(await b.host.handle(all)).toEqual(await host.handle(all));
  });

  it('refuses a damaged, cut or foreign snapshot and leaves the shard as it was', async () => {
    const a = await source();
    await a.host.handle({ op: 'snapshotShard', ...at, file: a.file });
    const b = node();
    await upsert(b.host, [1, 2, 3], 5);
    await b.db.meta.put(appliedSeqKey(meta.id, 0), 17);
    const before = records(b.db);

    const bytes = readFileSync(a.file);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0x40;
    const damaged = `${a.file}.damaged`;
    writeFileSync(damaged, flipped);
    const cut = `${a.file}.cut`;
    writeFileSync(cut, bytes.subarray(0, bytes.length - 100));
    const notOne = `${a.file}.text`;
    writeFileSync(notOne, 'hello, not a snapshot');

    const e1 = await refused(b.host.handle({ op: 'restoreShard', ...at, file: damaged }));
    expect(e1.code).toBe('PreconditionFailed');
    expect(e1.message).toMatch(/^Snapshot not restored, shard 7\/0 unchanged: snapshot (file damaged \(CRC-32 mismatch\)|.*frame unreadable|frame of)/);
    const e2 = await refused(b.host.handle({ op: 'restoreShard', ...at, file: cut }));
    expect(e2.message).toMatch(/unchanged: snapshot file (ends early|has no end frame)/);
    const e3 = await refused(b.host.handle({ op: 'restoreShard', ...at, file: notOne }));
    expect(e3.message).toContain('not a Quiver shard snapshot (bad magic)');
    const e4 = await refused(b.host.handle({ op: 'restoreShard', collection: meta.id, shard: 1, file: a.file }));
    expect(e4.code).toBe('NotFound');
    expect(e4.message).toBe('Shard 7/1 is not on worker 0');

    expect(records(b.db)).toEqual(before);
    expect(b.db.meta.get(appliedSeqKey(meta.id, 0))).toBe(17);
    expect((await b.host.handle(all)).map((p) => p.id)).toEqual([1, 2, 3]);

    // A snapshot of another shard is refused by its header (the same bytes restored elsewhere).
    const foreign = `${a.file}.foreign`;
    copyFileSync(a.file, foreign);
    const other = { ...meta, id: 8, name: 'other' };
    b.db.catalog.putSync(other.name, other);
    await b.host.handle({ op: 'openShards', meta: other, shards: [0] });
    const e5 = await refused(b.host.handle({ op: 'restoreShard', collection: 8, shard: 0, file: foreign }));
    expect(e5.message).toBe('Snapshot not restored, shard 8/0 unchanged: snapshot of shard 7/0, not 8/0');
  });
});
