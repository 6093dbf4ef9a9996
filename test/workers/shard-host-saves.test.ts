// The ShardHost holds a shard's writes while a background save writes its graph (hnswlib reads it
// off-thread), keeps their order, and answers reads meanwhile; the load reports what it did.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDb, type QuiverDb } from '../../src/shared/db.js';
import { type RequestOf } from '../../src/shared/protocol.js';
import { UNCONDITIONAL } from '../../src/shared/shard-results.js';
import { ShardHost } from '../../src/workers/shard-host.js';
import { batch, metaOf } from './shard/helpers.js';

let dir: string;
let db: QuiverDb;

afterEach(async () => {
  await db.root.close();
  rmSync(dir, { recursive: true, force: true });
});

const meta = metaOf(2);
const upsert = (id: number, v: number[], opId: number) =>
  ({ op: 'upsert', collection: meta.id, shard: 0, opId, wait: false, batch: batch([id], [v]), condition: UNCONDITIONAL }) as const;
const retrieve: RequestOf<'retrieve'> = { op: 'retrieve', collection: meta.id, shard: 0, ids: [1, 2], withPayload: { kind: 'none' }, withVector: { kind: 'all' } };

describe('ShardHost background saves', () => {
  it('writes wait for a save writing the graph, in order, while reads are answered', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quiver-host-'));
    db = openDb(dir);
    await db.catalog.put(meta.name, meta);
    const host = new ShardHost(0, 1, db, join(dir, 'hnsw'), { savePolicy: { everyWrites: 1, everySeconds: 0 } });
    host.loadAll();
    const first = host.handle(upsert(1, [1, 0], 1)); // its write starts a save, once this turn's writes are done
    await null; // the next request arrives in a later turn, as each message does
    const second = host.handle(upsert(1, [0, 1], 2)); // held
    const third = host.handle({ op: 'delete', collection: meta.id, shard: 0, opId: 3, wait: false, ids: [1], filter: null }); // held, after the second
    const fourth = host.handle(upsert(2, [1, 1], 4));
    // Reads are not held: the first write is visible, the held ones not yet.
    expect(await host.handle(retrieve)).toEqual([{ id: 1, vector: Float32Array.of(1, 0) }]);
    await Promise.all([first, second, third, fourth]);
    // Applied in arrival order: the delete came after the second upsert.
    expect(await host.handle(retrieve)).toEqual([{ id: 2, vector: Float32Array.of(1, 1) }]);
    // The save's checksums and manifest are written after the held writes run again.
    await vi.waitFor(async () => expect((await host.handle({ op: 'shardInfo', collection: meta.id, shard: 0 })).graphSaves).toBeGreaterThanOrEqual(1));
    await host.handle({ op: 'saveIndexes' });

    // A new host over the same files: the graph is read back, nothing replayed.
    const again = new ShardHost(0, 1, db, join(dir, 'hnsw'));
    again.loadAll();
    const ping = await again.handle({ op: 'ping' });
    expect(ping.loads).toMatchObject([{ collection: meta.id, shard: 0, points: 1, graphsRead: 1, graphsRebuilt: 0, replayed: 0, rebuildReason: null }]);
    expect(ping.restoredShards).toBe(1);
  });
});
