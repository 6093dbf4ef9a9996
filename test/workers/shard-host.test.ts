// A worker's read copies (ShardHost, no thread): a copy opened held keeps the requests it gets
// until loadShards, then runs them in arrival order over what it loaded; it writes nothing to
// LMDB or the graph files, leaves the primary's graph marker alone, and a drop keeps the files.

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type QuiverDb } from '../../src/shared/db.js';
import { type PointBatch } from '../../src/shared/protocol.js';
import { UNCONDITIONAL } from '../../src/shared/shard-results.js';
import { ShardHost } from '../../src/workers/shard-host.js';
import { metaOf } from './shard/helpers.js';

const meta = metaOf(2);
let dir = '';
let db: QuiverDb | null = null;

afterEach(async () => {
  await db?.root.close();
  db = null;
  rmSync(dir, { recursive: true, force: true });
});

function hosts(): { primary: ShardHost; copy: ShardHost; indexDir: string } {
  dir = mkdtempSync(join(tmpdir(), 'quiver-host-'));
  db = openDb(dir);
  const indexDir = join(dir, 'hnsw');
  return { primary: new ShardHost(0, 2, db, indexDir), copy: new ShardHost(1, 2, db, indexDir), indexDir };
}

function batch(ids: number[]): PointBatch {
  return { ids, payloads: ids.map((i) => ({ i })), vectors: { '': { data: new Float32Array(ids.flatMap((i) => [i, 1])), present: null } }, sparse: {} };
}

const at = { collection: meta.id, shard: 0 };
const upsert = (ids: number[], opId: number) => ({ op: 'upsert' as const, ...at, opId, wait: true, batch: batch(ids), condition: UNCONDITIONAL });
const retrieve = (ids: number[]) => ({ op: 'retrieve' as const, ...at, ids, withPayload: { kind: 'all' as const }, withVector: { kind: 'none' as const } });

describe('ShardHost read copies', () => {
  it('holds the requests of a copy being built, then runs them in order over what it loaded', async () => {
    const { primary, copy } = hosts();
    await primary.handle({ op: 'openShards', meta, shards: [0] });
    await primary.handle(upsert([1, 2, 3], 1));

    await copy.handle({ op: 'openShards', meta, shards: [0], secondary: true, hold: true });
    let upserted = false;
    const heldWrite = copy.handle(upsert([4], 2)).then((r) => ((upserted = true), r));
    const heldRead = copy.handle(retrieve([1, 2, 3, 4]));
    await primary.handle(upsert([4], 2));
    // Opened held again before it loaded (a rebuild): what was held stays held.
    await copy.handle({ op: 'openShards', meta, shards: [0], secondary: true, hold: true });
    await new Promise((r) => setTimeout(r, 10));
    expect(upserted).toBe(false);

    await copy.handle({ op: 'loadShards', collection: meta.id, shards: [0] });
    // Point 4 was in LMDB at load and written again by the held write: harmless, same version.
    expect(await heldWrite).toEqual({ applied: 1 });
    expect((await heldRead).map((p) => p.id)).toEqual([1, 2, 3, 4]);
    // A second load (the earlier open's) finds nothing held: a no-op.
    await copy.handle({ op: 'loadShards', collection: meta.id, shards: [0] });
    expect((await copy.handle({ op: 'count', ...at, filter: null, exact: true }))).toBe(4);
  });

  it('writes memory only: no LMDB record, no graph files; it reads the primary saved graphs and a drop keeps the files', async () => {
    const { primary, copy, indexDir } = hosts();
    await primary.handle({ op: 'openShards', meta, shards: [0] });
    await primary.handle(upsert([1, 2], 1));
    await copy.handle({ op: 'openShards', meta, shards: [0], secondary: true });
    await copy.handle(upsert([1, 2], 1));
    await copy.handle(upsert([99], 3));
    expect(db!.points.get([meta.id, 0, 99])).toBeUndefined();
    expect((await copy.handle(retrieve([99]))).map((p) => p.id)).toEqual([99]);

    await copy.handle({ op: 'saveIndexes' });
    expect(existsSync(indexDir)).toBe(false);
    await primary.handle({ op: 'saveIndexes' });
    const files = readdirSync(indexDir);
    expect(files.length).toBeGreaterThan(0);

    // A copy loading now reads the primary's saved graphs, and leaves them as they are.
    const again = new ShardHost(1, 2, db!, indexDir);
    await again.handle({ op: 'openShards', meta, shards: [0], secondary: true, hold: true });
    await again.handle({ op: 'loadShards', collection: meta.id, shards: [0] });
    expect((await again.handle({ op: 'ping' })).loads.at(-1)).toMatchObject({ graphsRead: 1, graphsRebuilt: 0, replayed: 0 });
    expect(readdirSync(indexDir)).toEqual(files);
    expect(await again.handle({ op: 'count', ...at, filter: null, exact: true })).toBe(2);

    await again.handle({ op: 'dropShards', collection: meta.id, shards: [0] });
    expect(readdirSync(indexDir)).toEqual(files);
  });

  it('a copy dropped while held fails what it held', async () => {
    const { copy } = hosts();
    await copy.handle({ op: 'openShards', meta, shards: [0], secondary: true, hold: true });
    const held = copy.handle(retrieve([1]));
    await copy.handle({ op: 'dropShards', collection: meta.id, shards: [0] });
    await expect(held).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('a read reaching a copy dropped by a PATCH gets a retryable ShardUnavailable, until the copy is opened again', async () => {
    const { copy } = hosts();
    await copy.handle({ op: 'openShards', meta, shards: [0], secondary: true });
    await copy.handle(upsert([1], 1));
    await copy.handle({ op: 'dropShards', collection: meta.id, shards: [0] });
    await expect(copy.handle(retrieve([1]))).rejects.toMatchObject({ code: 'ShardUnavailable', message: expect.stringContaining('was dropped') });
    await copy.handle({ op: 'openShards', meta, shards: [0], secondary: true });
    expect(await copy.handle(retrieve([1]))).toEqual([]);
  });

  it('a read reaching a dropped primary (a DELETE) is still not found', async () => {
    const { primary } = hosts();
    await primary.handle({ op: 'openShards', meta, shards: [0] });
    await primary.handle({ op: 'dropShards', collection: meta.id, shards: [0] });
    await expect(primary.handle(retrieve([1]))).rejects.toMatchObject({ code: 'NotFound' });
  });
});
