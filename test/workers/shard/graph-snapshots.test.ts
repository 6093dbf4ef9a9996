// Graph snapshots on disk: a save is read back with the same slots and answers; a damaged,
// truncated or missing file, an unreadable manifest or changed parameters mean a rebuild, with the
// reason; a save interrupted half-way leaves the previous one usable; dropping a shard deletes its
// files only. The manifest is binary (format 4) with its own checksum; one damaged or cut short
// means a rebuild, and a JSON one of formats 3 and 2 (a save of an older version) is still read.
// Replay after a save and background saves: graph-snapshots-replay.test.ts.

import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphSnapshots, decodeManifest, encodeManifest, type GraphManifest } from '../../../src/workers/shard/graph-snapshots.js';
import type { PointBatch } from '../../../src/shared/protocol.js';
import { batch, metaOf, shardFixture, spec, type Fixture } from './helpers.js';
import { rng } from '../../helpers/random.js';
import { exact, filled, manifest, MANIFEST, search, vec, writeManifest } from './graph-helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());


/** A manifest as an older version wrote it: JSON, [id, slot] pairs, label lists (format 3, or 2 with sha256). */
function legacyJson(m: GraphManifest, format: 2 | 3, graph: (name: string) => Record<string, unknown> = () => ({})): string {
  const slots: [number | string, number][] = [];
  let u = 0;
  m.slots.kind.forEach((k, slot) => {
    if (k === 1) slots.push([m.slots.num[slot]!, slot]);
    else if (k === 2) slots.push([m.slots.uuids[u++]!, slot]);
  });
  const spaces = Object.fromEntries(Object.entries(m.spaces).map(([name, g]) => [name, { ...g, labels: [...g.labels], deleted: [...g.deleted], ...graph(name) }]));
  return JSON.stringify({ format, gen: m.gen, seq: m.seq, count: m.count, slots, spaces });
}

describe('GraphSnapshots', () => {
  it('round trip: the saved graph is read back with the same slots and answers, nothing replayed', async () => {
    fx = await filled();
    const before = search(fx.shard);
    await fx.shard.saveIndexes();
    expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g1.hnsw', MANIFEST]);
    const m = manifest(fx);
    expect(m).toMatchObject({ format: 4, gen: 1, count: 48, spaces: { '': { file: '7-0-0-g1.hnsw', m: 16, efConstruct: 100, dim: 3 } } });
    expect(m.spaces['']!.crc32).toBe(crc32(readFileSync(join(fx.indexDir, '7-0-0-g1.hnsw'))));
    expect([...m.spaces['']!.deleted].sort()).toEqual([3, 4]);
    expect(m.spaces['']!.labels).toHaveLength(50);
    // Slots 3 and 4 (ids 3 and 4) were freed; the others hold their ids.
    expect([...m.slots.kind.slice(0, 6)]).toEqual([1, 1, 1, 0, 0, 1]);
    expect(m.slots.num[49]).toBe(49);
    const { shard, restored, load } = fx.reopen();
    expect(restored).toBe(true);
    expect(load).toMatchObject({ points: 48, graphsRead: 1, graphsRebuilt: 0, replayed: 0, rebuildReason: null });
    expect(search(shard)).toEqual(before);
    expect(shard.info(0)).toMatchObject({ points: 48, indexedVectors: { '': 48 } });
    // Unlike the old clean-shutdown marker, a save stays valid after a load: a crash now replays nothing.
    expect(fx.reopen().load.replayed).toBe(0);
    // Nothing changed: a shutdown save writes nothing new.
    await shard.saveIndexes();
    expect(manifest(fx).gen).toBe(1);
  });

  describe('the binary manifest (format 4)', () => {
    const U = (n: number): string => `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;

    it('round trip: every kind of id (integers up to 2^53 - 1, UUIDs, free slots), several vectors, their labels', async () => {
      const meta = metaOf(3, 'Cosine');
      meta.config.vectors = { a: { size: 3, distance: 'Cosine' }, '1': { size: 2, distance: 'Dot' } };
      fx = shardFixture(meta);
      const ids: (number | string)[] = [0, U(1), Number.MAX_SAFE_INTEGER, U(2), 5, 6, U(3)];
      // Every point has vector 'a', every other one vector '1'.
      const named = (of: (number | string)[], from = 0): PointBatch => ({
        ids: of,
        payloads: of.map(() => null),
        vectors: {
          a: { data: Float32Array.from(of.flatMap((_, i) => vec(from + i))), present: null },
          '1': { data: Float32Array.from(of.flatMap((_, i) => ((from + i) % 2 === 0 ? [from + i, 1] : []))), present: Uint8Array.from(of.map((_, i) => ((from + i) % 2 === 0 ? 1 : 0))) },
        },
        sparse: {},
      });
      await fx.shard.upsert(named(ids), 1, true);
      await fx.shard.delete([5, U(2)], null, 2, true);
      await fx.shard.saveIndexes();
      const m = manifest(fx);
      expect(m).toMatchObject({ format: 4, gen: 1, count: 5 });
      expect([...m.slots.kind]).toEqual([1, 2, 1, 0, 0, 1, 2]);
      expect(m.slots.num[2]).toBe(Number.MAX_SAFE_INTEGER);
      expect(m.slots.uuids).toEqual([U(1), U(3)]);
      expect(Object.keys(m.spaces)).toEqual(['1', 'a']);
      expect([...m.spaces['a']!.labels]).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect([...m.spaces['a']!.deleted]).toEqual([3, 4]);
      expect([...m.spaces['1']!.labels]).toEqual([0, 2, 4, 6]);
      // Encoding what was decoded gives the same bytes.
      expect(encodeManifest(m).equals(readFileSync(join(fx.indexDir, MANIFEST)))).toBe(true);
      // Read from a buffer at an odd offset (its arrays cannot be views then): the same manifest.
      const bytes = readFileSync(join(fx.indexDir, MANIFEST));
      const odd = Buffer.alloc(bytes.length + 3);
      bytes.copy(odd, 3);
      expect(decodeManifest(odd.subarray(3))).toEqual(m);
      const { shard, load } = fx.reopen();
      expect(load).toMatchObject({ points: 5, graphsRead: 2, graphsRebuilt: 0, replayed: 0, rebuildReason: null });
      expect(shard.retrieve([0, U(1), Number.MAX_SAFE_INTEGER, U(2), 5, 6, U(3)], { kind: 'none' }, { kind: 'none' }).map((p) => p.id)).toEqual([0, U(1), Number.MAX_SAFE_INTEGER, 6, U(3)]);
      // The freed slots are reused first.
      await shard.upsert(named([7, U(4)], 7), 3, true);
      expect(manifest(fx).slots.kind.length).toBe(7);
      await shard.saveIndexes();
      expect([...manifest(fx).slots.kind]).toEqual([1, 2, 1, 1, 2, 1, 2]);
      expect(fx.reopen().load).toMatchObject({ points: 7, graphsRead: 2, replayed: 0 });
    });

    it('a manifest with a flipped byte or cut short is never trusted: the graphs are rebuilt, saying why', async () => {
      fx = await filled();
      const before = exact(fx.shard);
      await fx.shard.saveIndexes();
      const path = join(fx.indexDir, MANIFEST);
      const good = readFileSync(path);
      // A byte of every part: the header, the id kinds, the ids, the labels, the checksum itself.
      for (const at of [20, good.length >> 2, good.length >> 1, good.length - 40, good.length - 1]) {
        const bad = Buffer.from(good);
        bad[at] = bad[at]! ^ 0x10;
        writeFileSync(path, bad);
        const r = fx.reopen();
        expect(r.load).toMatchObject({ points: 48, graphsRead: 0, graphsRebuilt: 1, rebuildReason: 'manifest unreadable: manifest damaged (checksum mismatch)' });
        expect(search(r.shard)).toEqual(before);
      }
      for (const length of [good.length - 1, good.length >> 1, 10, 0]) {
        writeFileSync(path, good.subarray(0, length));
        const r = fx.reopen();
        expect(r.load).toMatchObject({ points: 48, graphsRead: 0, graphsRebuilt: 1 });
        expect(r.load.rebuildReason).toMatch(/^manifest unreadable: manifest (damaged \(checksum mismatch\)|of \d+ bytes)$/);
        expect(search(r.shard)).toEqual(before);
      }
      // One whose checksum matches but whose length is not what its header says (a bug, not damage).
      const long = Buffer.concat([good.subarray(0, good.length - 4), Buffer.alloc(8)]);
      const withCrc = Buffer.concat([long, Buffer.alloc(4)]);
      withCrc.writeUInt32LE(crc32(long), long.length);
      writeFileSync(path, withCrc);
      expect(fx.reopen().load.rebuildReason).toMatch(/^manifest unreadable: manifest of \d+ bytes, its header says \d+$/);
      writeFileSync(path, good);
      expect(fx.reopen().load).toMatchObject({ graphsRead: 1, graphsRebuilt: 0, rebuildReason: null });
    });

    it('an upgrade in place: a JSON save (format 3) is read without a rebuild, and the next save replaces it', async () => {
      fx = await filled();
      await fx.shard.upsert(batch([U(1)], [vec(60)]), 3, true);
      await fx.shard.saveIndexes();
      await fx.shard.upsert(batch([100], [[1, 0, 1]]), 4, true); // after the save: replayed
      const before = exact(fx.shard);
      // What the version before this one left: its JSON manifest, no binary one.
      writeFileSync(join(fx.indexDir, '7-0.json'), legacyJson(manifest(fx), 3));
      rmSync(join(fx.indexDir, MANIFEST));
      const json = readFileSync(join(fx.indexDir, '7-0.json'));
      // A read copy (never writes files) reads it and leaves it as it is.
      const copy = fx.reopen(undefined, { secondary: true });
      expect(copy.load).toMatchObject({ points: 50, graphsRead: 1, graphsRebuilt: 0, replayed: 1, rebuildReason: null });
      expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g1.hnsw', '7-0.json']);
      // The primary reads it, then keeps the same manifest in the binary format (before any save).
      const { shard, load } = fx.reopen();
      expect(load).toMatchObject({ points: 50, graphsRead: 1, graphsRebuilt: 0, replayed: 1, rebuildReason: null });
      expect(search(shard)).toEqual(before);
      expect(shard.retrieve([U(1)], { kind: 'none' }, { kind: 'none' })).toHaveLength(1);
      expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g1.hnsw', MANIFEST]);
      expect(legacyJson(manifest(fx), 3)).toBe(json.toString('utf8'));
      expect(fx.reopen().load).toMatchObject({ points: 50, graphsRead: 1, graphsRebuilt: 0, replayed: 1, rebuildReason: null });
      await shard.saveIndexes();
      expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g2.hnsw', MANIFEST]);
      expect(fx.reopen().load).toMatchObject({ points: 50, graphsRead: 1, replayed: 0 });
    });

    it('a format 2 JSON save (sha256s) is read as it is, not rewritten', async () => {
      fx = await filled();
      await fx.shard.saveIndexes();
      const file = join(fx.indexDir, '7-0-0-g1.hnsw');
      writeFileSync(join(fx.indexDir, '7-0.json'), legacyJson(manifest(fx), 2, () => ({ crc32: undefined, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') })));
      rmSync(join(fx.indexDir, MANIFEST));
      expect(fx.reopen().load).toMatchObject({ points: 48, graphsRead: 1, graphsRebuilt: 0 });
      expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g1.hnsw', '7-0.json']);
    });

    it('a JSON manifest whose layout cannot be one (an id at two slots) is not used', async () => {
      fx = await filled();
      await fx.shard.saveIndexes();
      const old = JSON.parse(legacyJson(manifest(fx), 3)) as { slots: [number, number][] };
      old.slots[1]![0] = old.slots[0]![0];
      writeFileSync(join(fx.indexDir, '7-0.json'), JSON.stringify(old));
      rmSync(join(fx.indexDir, MANIFEST));
      const { load } = fx.reopen();
      expect(load).toMatchObject({ points: 48, graphsRead: 0, graphsRebuilt: 1, rebuildReason: 'manifest unreadable: point id 0 at slots 0 and 1' });
    });
  });

  describe.skipIf(process.env.QUIVER_SKIP_NATIVE_BUILD === '1')('a quantized graph', () => {
    const N = 1200;
    /** `n` random rows of 8 dimensions (seeded): neighbours are distinct, as in embeddings. */
    const rows = (seed: number, n: number): number[][] => {
      const r = rng(seed);
      return Array.from({ length: n }, () => Array.from({ length: 8 }, () => r() * 2 - 1));
    };
    const Q = rows(3, 1)[0]!;
    /** `onDisk`: the originals read from LMDB (a load then decodes no row of this vector). */
    async function quantized(onDisk = false): Promise<Fixture> {
      const meta = metaOf(8, 'Cosine', { m: 8, ef_construct: 32 });
      meta.config.quantization_config = { scalar: { type: 'int8', quantile: 0.95 } };
      if (onDisk) meta.config.vectors['']!.on_disk = true;
      fx = shardFixture(meta);
      await fx.shard.upsert(batch(Array.from({ length: N }, (_, i) => i), rows(1, N)), 1, true);
      // Built in the background once the shard holds 1,000 rows.
      while (fx.shard.info(0).indexedVectors['']! < N) await new Promise((r) => setTimeout(r, 5));
      return fx;
    }

    it('is saved with its codes in the manifest and read back, not rebuilt; the writes after its save are replayed onto it', async () => {
      await quantized();
      await fx.shard.saveIndexes();
      const m = manifest(fx);
      const g = m.spaces['']!;
      expect(g).toMatchObject({ space: 'int8:l2', dim: 8, m: 8, efConstruct: 32, codes: { quantile: 0.95 } });
      expect(g.codes!.alpha).toBeGreaterThan(0);
      expect(g.labels.length).toBe(N);
      expect(encodeManifest(m).equals(readFileSync(join(fx.indexDir, MANIFEST)))).toBe(true);
      // The same graph answers alike (over codes, rescored: not necessarily the exact top 5).
      const want = search(fx.shard, Q);
      let r = fx.reopen();
      expect(r.load).toMatchObject({ points: N, graphsRead: 1, graphsRebuilt: 0, replayed: 0 });
      expect(r.shard.info(0).indexedVectors['']).toBe(N);
      expect(search(r.shard, Q)).toEqual(want);
      // Writes after the save, then a reopen without saving (a kill -9): replayed onto the read graph.
      const added = rows(2, 2);
      await r.shard.upsert(batch([N, N + 1], added), 2, true);
      await r.shard.delete([0], null, 3, true);
      r = fx.reopen();
      expect(r.load).toMatchObject({ points: N + 1, graphsRead: 1, graphsRebuilt: 0, replayed: 3 });
      expect(r.shard.info(0).indexedVectors['']).toBe(N + 1);
      const own = r.shard.search(spec(added[1]!, { k: 3, withPayload: { kind: 'none' }, quantization: { ignore: false, rescore: true, oversampling: 4 } }));
      expect(own[0]!.id).toBe(N + 1);
      expect(search(r.shard, rows(1, 1)[0]!)).not.toContain(0);
    });

    it('a damaged quantized graph file is passed over: the rest of the save is used and the graph is built again in the background', async () => {
      // Originals on disk: the load decodes no row, so the build is started by the restore itself.
      await quantized(true);
      await fx.shard.saveIndexes();
      const file = join(fx.indexDir, manifest(fx).spaces['']!.file);
      const bytes = readFileSync(file);
      for (let i = 200; i < 216; i++) bytes[i] = bytes[i]! ^ 0x5a;
      writeFileSync(file, bytes);
      const { shard, load } = fx.reopen();
      expect(load).toMatchObject({ points: N, graphsRead: 0, graphsRebuilt: 0, replayed: 0 });
      // Exact meanwhile, then the graph over codes again.
      expect(search(shard, Q)).toEqual(exact(shard, Q));
      while (shard.info(0).indexedVectors['']! < N) await new Promise((r) => setTimeout(r, 5));
    });
  });

  it('detects a damaged graph file (bytes flipped, truncated, missing) and rebuilds it, saying why', async () => {
    fx = await filled();
    const before = exact(fx.shard);
    await fx.shard.saveIndexes();
    const file = join(fx.indexDir, '7-0-0-g1.hnsw');
    const bytes = readFileSync(file);
    const mid = bytes.length >> 1;
    bytes[mid] = bytes[mid]! ^ 0xff;
    writeFileSync(file, bytes);
    let r = fx.reopen();
    expect(r.restored).toBe(false);
    expect(r.load).toMatchObject({ graphsRead: 0, graphsRebuilt: 1, rebuildReason: 'graph file 7-0-0-g1.hnsw damaged (checksum mismatch)' });
    expect(search(r.shard)).toEqual(before);

    await r.shard.saveIndexes(); // the rebuilt graph is saved anew (generation 2)
    const file2 = join(fx.indexDir, '7-0-0-g2.hnsw');
    expect(existsSync(file)).toBe(false);
    truncateSync(file2, 100);
    r = fx.reopen();
    expect(r.load.rebuildReason).toMatch(/^graph file 7-0-0-g2\.hnsw damaged \(size 100, expected \d+\)$/);
    expect(search(r.shard)).toEqual(before);

    await r.shard.saveIndexes();
    rmSync(join(fx.indexDir, '7-0-0-g3.hnsw'));
    r = fx.reopen();
    expect(r.load.rebuildReason).toBe('graph file 7-0-0-g3.hnsw missing');
    expect(search(r.shard)).toEqual(before);
  });

  it('reads a save of the sha256 format (2), checking its sha256: intact it is used, damaged it is rebuilt', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    await fx.shard.upsert(batch([100], [[1, 0, 1]]), 3, true);
    const before = exact(fx.shard);
    const file = join(fx.indexDir, '7-0-0-g1.hnsw');
    const m = manifest(fx);
    rmSync(join(fx.indexDir, MANIFEST));
    writeFileSync(join(fx.indexDir, '7-0.json'), legacyJson(m, 2, () => ({ crc32: undefined, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') })));
    let r = fx.reopen();
    expect(r.load).toMatchObject({ points: 49, graphsRead: 1, graphsRebuilt: 0, replayed: 1, rebuildReason: null });
    expect(search(r.shard)).toEqual(before);

    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    writeFileSync(file, bytes);
    r = fx.reopen();
    expect(r.load).toMatchObject({ graphsRead: 0, graphsRebuilt: 1, rebuildReason: 'graph file 7-0-0-g1.hnsw damaged (checksum mismatch)' });
    expect(search(r.shard)).toEqual(before);
  });

  it('a graph the manifest passes but hnswlib cannot use is rebuilt from the LMDB rows (a load stages none)', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    // Written after the save: the rebuild must hold these too.
    await fx.shard.upsert(batch([100], [[1, 0, 1]]), 3, true);
    await fx.shard.delete([10], null, 4, true);
    const before = exact(fx.shard);
    // The file is intact (its checksum matches) but the manifest lists one label fewer than it holds.
    const m = manifest(fx);
    m.spaces['']!.labels = m.spaces['']!.labels.subarray(0, -1);
    writeManifest(fx, m);
    const r = fx.reopen();
    expect(r.load).toMatchObject({ points: 48, graphsRead: 0, graphsRebuilt: 1 });
    expect(r.load.rebuildReason).toMatch(/^graph of vector '' unreadable: graph holds 50 elements, its manifest 49$/);
    expect(search(r.shard)).toEqual(before);
    expect(exact(r.shard)).toEqual(before);
    expect(r.shard.info(0)).toMatchObject({ points: 48, indexedVectors: { '': 48 } });
  });

  it('a saved graph that passes its checksum but cannot be read is rebuilt from every stored row, not only the replayed ones', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    await fx.shard.upsert(batch([100], [vec(100)]), 3, true); // one write after the save
    // The load skips the rows the saved graph holds; then the graph fails to load (the manifest
    // names a label more than the file holds).
    const m = manifest(fx);
    m.spaces['']!.labels = Uint32Array.from([...m.spaces['']!.labels, 999]);
    writeManifest(fx, m);
    const { shard, load } = fx.reopen();
    expect(load).toMatchObject({ points: 49, graphsRead: 0, graphsRebuilt: 1, replayed: 1 });
    expect(load.rebuildReason).toMatch(/graph of vector '' unreadable: graph holds 50 elements, its manifest 51/);
    expect(shard.info(0)).toMatchObject({ points: 49, indexedVectors: { '': 49 } });
    for (const q of [[1, 0, 1], [-1, 0, -1], vec(100), vec(20)]) expect(search(shard, q)).toEqual(exact(shard, q));
    expect(shard.retrieve([20], { kind: 'none' }, { kind: 'all' })[0]!.vector).toHaveLength(3);
  });

  it('a graph saved while its rebuild with new parameters runs is saved as what it is, and rebuilt at the next load', async () => {
    const meta = metaOf(3, 'Cosine', { m: 16, ef_construct: 100 });
    fx = shardFixture(meta);
    const ids = Array.from({ length: 2000 }, (_, i) => i);
    await fx.shard.upsert(batch(ids, ids.map(vec)), 1, true);
    const patched = metaOf(3, 'Cosine', { m: 8, ef_construct: 100 });
    fx.shard.updateMeta(patched);
    // The m 16 graph still serves (the m 8 one is built in the background): the save holds it.
    expect(fx.shard.rebuilding).toBe(true);
    await fx.shard.saveIndexes();
    expect(manifest(fx).spaces['']).toMatchObject({ m: 16 });
    // The background rebuild stops with this shard (it would read a closed LMDB otherwise).
    fx.shard.dispose();
    expect(fx.reopen(patched).load).toMatchObject({ graphsRead: 0, graphsRebuilt: 1, rebuildReason: "graph of vector '' saved with other parameters (m 16, ef_construct 100)" });
  });

  it('rebuilds when the manifest is unreadable, missing or from graphs of other parameters', async () => {
    fx = await filled();
    const before = exact(fx.shard);
    expect(fx.reopen().load).toMatchObject({ graphsRebuilt: 1, rebuildReason: 'no saved graph' });
    await fx.shard.saveIndexes();
    expect(fx.reopen(metaOf(3, 'Cosine', { m: 8 })).load.rebuildReason).toBe("graph of vector '' saved with other parameters (m 16, ef_construct 100)");
    writeFileSync(join(fx.indexDir, MANIFEST), 'not a manifest at all');
    const r = fx.reopen();
    expect(r.load.rebuildReason).toBe('manifest unreadable: not a manifest (magic)');
    expect(search(r.shard)).toEqual(before);
  });

  it('a save interrupted half-way leaves the previous one usable, and the next save clears its leftovers', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    // What a crash mid-save leaves: a partial graph of the next generation and a temp manifest.
    writeFileSync(join(fx.indexDir, '7-0-0-g2.hnsw'), 'partial');
    writeFileSync(join(fx.indexDir, `${MANIFEST}.tmp`), 'QVGM');
    const { shard, restored } = fx.reopen();
    expect(restored).toBe(true);
    await shard.upsert(batch([200], [vec(200)]), 3, true);
    await shard.saveIndexes();
    // The unfinished generation's file is written over, the temp manifest deleted.
    expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g2.hnsw', MANIFEST]);
    expect(fx.reopen().load).toMatchObject({ points: 49, replayed: 0, graphsRead: 1 });
  });

  it('drop deletes the shard files only, also for a shard never opened', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    writeFileSync(join(fx.indexDir, '7-01.json'), '{}'); // another shard's prefix, not this one's
    writeFileSync(join(fx.indexDir, '70-0.json'), '{}');
    new GraphSnapshots(fx.indexDir, 7, 0).drop();
    expect(readdirSync(fx.indexDir).sort()).toEqual(['7-01.json', '70-0.json']);
    new GraphSnapshots(join(fx.dir, 'absent'), 9, 0).drop();
    expect(existsSync(join(fx.dir, 'absent'))).toBe(false);
  });
});
