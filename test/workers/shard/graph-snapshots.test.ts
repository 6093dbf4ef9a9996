// Graph snapshots: a clean save is read back; a missing marker, a damaged or missing file, or
// changed parameters mean a rebuild; dropping a shard deletes its files and marker.

import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphSnapshots } from '../../../src/workers/shard/graph-snapshots.js';
import { batch, metaOf, shardFixture, spec, type Fixture } from './helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());

async function filled(): Promise<Fixture> {
  const f = shardFixture(metaOf(3, 'Cosine'));
  const ids = Array.from({ length: 50 }, (_, i) => i);
  await f.shard.upsert(batch(ids, ids.map((i) => [Math.sin(i), Math.cos(i), 1])), 1, true);
  await f.shard.delete([3, 4], null, 2, true);
  return f;
}

const search = (f: { search: Fixture['shard']['search'] }): (number | string)[] => f.search(spec([1, 0, 1], { k: 5, withPayload: { kind: 'none' } })).map((p) => p.id);

describe('GraphSnapshots', () => {
  it('round trip: the graph saved at a clean shutdown is read back, with the same slots and answers', async () => {
    fx = await filled();
    const before = search(fx.shard);
    await fx.shard.saveIndexes();
    expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0.hnsw', '7-0.json']);
    const { shard, restored } = fx.reopen();
    expect(restored).toBe(true);
    expect(search(shard)).toEqual(before);
    expect(shard.info(0)).toMatchObject({ points: 48, indexedVectors: { '': 48 } });
    // The marker is taken at load (its removal commits in the background): a crash from now on
    // means a rebuild.
    await fx.db.root.flushed;
    expect(fx.reopen().restored).toBe(false);
  });

  it('rebuilds when the marker is missing (the last run did not end cleanly)', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    await fx.db.meta.remove('hnsw:7:0');
    const { shard, restored } = fx.reopen();
    expect(restored).toBe(false);
    expect(search(shard)).toEqual(search(fx.shard));
  });

  it('rebuilds when the manifest is damaged or a graph file is missing', async () => {
    fx = await filled();
    const before = search(fx.shard);
    await fx.shard.saveIndexes();
    writeFileSync(join(fx.indexDir, '7-0.json'), '{not json');
    let reopened = fx.reopen();
    expect(reopened.restored).toBe(false);
    expect(search(reopened.shard)).toEqual(before);

    await reopened.shard.saveIndexes();
    rmSync(join(fx.indexDir, '7-0-0.hnsw'));
    reopened = fx.reopen();
    expect(reopened.restored).toBe(false);
    expect(search(reopened.shard)).toEqual(before);
  });

  it('rebuilds a graph saved with other parameters than the configuration', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    const { restored } = fx.reopen(metaOf(3, 'Cosine', { m: 8 }));
    expect(restored).toBe(false);
  });

  it('drop deletes the shard files and marker only, also for a shard never opened', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    writeFileSync(join(fx.indexDir, '7-01.json'), '{}'); // another shard's prefix, not this one's
    writeFileSync(join(fx.indexDir, '70-0.json'), '{}');
    await new GraphSnapshots(fx.db, fx.indexDir, 7, 0).drop();
    expect(readdirSync(fx.indexDir).sort()).toEqual(['7-01.json', '70-0.json']);
    expect(fx.db.meta.get('hnsw:7:0')).toBeUndefined();
    await new GraphSnapshots(fx.db, join(fx.dir, 'absent'), 9, 0).drop();
    expect(existsSync(join(fx.dir, 'absent'))).toBe(false);
  });
});
