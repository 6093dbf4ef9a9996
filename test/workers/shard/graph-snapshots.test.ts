// Graph snapshots: a save is read back and only the writes after it are replayed (points
// written, updated, deleted, vectors removed); a damaged, truncated or missing file, an unreadable
// manifest or changed parameters mean a rebuild, with the reason; a save interrupted half-way
// leaves the previous one usable; saves happen every N writes; a copy that never saves writes no
// file; dropping a shard deletes its files only. The manifest is binary (format 4) with its own
// checksum; one damaged or cut short means a rebuild, and a JSON one of formats 3 and 2 (a save
// of an older version) is still read.

import { existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphSnapshots, decodeManifest, encodeManifest, type GraphManifest } from '../../../src/workers/shard/graph-snapshots.js';
import { Shard } from '../../../src/workers/shard/shard.js';
import type { PointBatch } from '../../../src/shared/protocol.js';
import { rng } from '../../helpers/random.js';
import { batch, metaOf, shardFixture, spec, type Fixture } from './helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());

const vec = (i: number): number[] => [Math.sin(i), Math.cos(i), 1 + (i % 5) / 10];

async function filled(options: Parameters<typeof shardFixture>[1] = {}): Promise<Fixture> {
  const f = shardFixture(metaOf(3, 'Cosine'), options);
  const ids = Array.from({ length: 50 }, (_, i) => i);
  await f.shard.upsert(batch(ids, ids.map(vec)), 1, true);
  await f.shard.delete([3, 4], null, 2, true);
  return f;
}

const search = (s: Shard, q = [1, 0, 1]): (number | string)[] => s.search(spec(q, { k: 5, withPayload: { kind: 'none' } })).map((p) => p.id);
const exact = (s: Shard, q = [1, 0, 1]): (number | string)[] => s.search(spec(q, { k: 5, exact: true, withPayload: { kind: 'none' } })).map((p) => p.id);
const MANIFEST = '7-0-manifest.bin';
const manifest = (f: Fixture): GraphManifest => decodeManifest(readFileSync(join(f.indexDir, MANIFEST)));
const writeManifest = (f: Fixture, m: GraphManifest): void => writeFileSync(join(f.indexDir, MANIFEST), encodeManifest(m));

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

  it('replays only the writes after the save: new, updated and deleted points, removed vectors', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    const seq = manifest(fx).seq;
    // Written after the save, never saved (what a kill -9 leaves).
    await fx.shard.upsert(batch([100, 101], [vec(100), vec(101)]), 3, true);
    await fx.shard.upsert(batch([7], [[-1, 0, -1]]), 4, true); // updated: moves far from the query
    await fx.shard.delete([10, 11, 12], null, 5, true);
    const { shard, restored, load } = fx.reopen();
    expect(restored).toBe(true);
    expect(load).toMatchObject({ points: 47, graphsRead: 1, graphsRebuilt: 0, replayed: 6 });
    expect(manifest(fx).seq).toBe(seq);
    expect(shard.info(0)).toMatchObject({ points: 47, indexedVectors: { '': 47 } });
    for (const q of [[1, 0, 1], [-1, 0, -1], vec(100), vec(11)]) expect(search(shard, q)).toEqual(exact(shard, q));
    expect(search(shard, [-1, 0, -1])[0]).toBe(7);
    expect(shard.retrieve([10, 11, 12, 100], { kind: 'none' }, { kind: 'none' }).map((p) => p.id)).toEqual([100]);
    // The next shutdown save covers the replayed writes: the start after it replays nothing.
    await shard.saveIndexes();
    expect(fx.reopen().load).toMatchObject({ replayed: 0, graphsRead: 1 });
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

  it('loadAsync (the graph read off-thread during the records pass) loads what load does, a replay and a graph hnswlib refuses included', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    await fx.shard.upsert(batch([100], [[1, 0, 1]]), 3, true);
    await fx.shard.delete([10], null, 4, true);
    const before = exact(fx.shard);
    const sync = fx.reopen();
    const async = new Shard(fx.meta, 0, fx.db, fx.indexDir);
    const load = await async.loadAsync();
    expect(load).toMatchObject({ points: 48, graphsRead: 1, graphsRebuilt: 0, replayed: 2, rebuildReason: null });
    expect({ ...load, phases: null }).toEqual({ ...sync.load, phases: null });
    expect(search(async)).toEqual(search(sync.shard));
    expect(exact(async)).toEqual(before);

    const m = manifest(fx);
    m.spaces['']!.labels = m.spaces['']!.labels.subarray(0, -1);
    writeManifest(fx, m);
    const refused = new Shard(fx.meta, 0, fx.db, fx.indexDir);
    expect(await refused.loadAsync()).toMatchObject({ points: 48, graphsRead: 0, graphsRebuilt: 1, rebuildReason: "graph of vector '' unreadable: graph holds 50 elements, its manifest 49" });
    expect(search(refused)).toEqual(before);
  });

  describe('a long replay at start (loadAsync) catches up in the background', () => {
    const DIM = 8;
    const row = (i: number, shift = 0): number[] => Array.from({ length: DIM }, (_, d) => Math.sin(i * 7.1 + d * 1.3) + shift);
    const ids = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
    const own = (s: Shard, v: number[]): { id: number | string; score: number } => {
      const hit = s.search(spec(v, { k: 1, withPayload: { kind: 'none' } }))[0]!;
      return { id: hit.id, score: hit.score };
    };
    /** 1,000 points saved, then (not saved) 600 new points, 200 changed vectors and 50 deletions. */
    async function crashed(): Promise<Fixture> {
      const f = shardFixture(metaOf(DIM, 'Euclid'));
      await f.shard.upsert(batch(ids(0, 1000), ids(0, 1000).map((i) => row(i))), 1, true);
      await f.shard.saveIndexes();
      await f.shard.upsert(batch(ids(1000, 600), ids(1000, 600).map((i) => row(i))), 2, true);
      await f.shard.upsert(batch(ids(0, 200), ids(0, 200).map((i) => row(i, 5))), 3, true);
      await f.shard.delete(ids(900, 50), null, 4, true);
      return f;
    }

    it('answers at once: every replayed point found by its new vector, none by its old one or deleted; no save until caught up', async () => {
      fx = await crashed();
      const shard = new Shard(fx.meta, 0, fx.db, fx.indexDir, { savePolicy: { everyWrites: 100, everySeconds: 0 } });
      const load = await shard.loadAsync();
      expect(load).toMatchObject({ points: 1550, graphsRead: 1, graphsRebuilt: 0, replayed: 850 });
      // The rows wait beside the graph: it holds the 800 saved points not changed since.
      expect(shard.info(0)).toMatchObject({ points: 1550, indexedVectors: { '': 750 } });
      for (const i of [0, 150, 1000, 1599]) expect(own(shard, row(i, i < 200 ? 5 : 0))).toEqual({ id: i, score: 0 });
      // An old vector finds its point no more at distance 0; a deleted point is gone.
      for (const i of [0, 150]) expect(own(shard, row(i)).score).toBeGreaterThan(0);
      expect(shard.retrieve([900, 949], { kind: 'none' }, { kind: 'none' })).toEqual([]);
      // Filtered and exact searches see the rows behind too.
      const only = shard.search(spec(row(1200), { k: 1, filter: { must: [{ has_id: [1200, 1201] }] }, withPayload: { kind: 'none' } }));
      expect(only.map((p) => p.id)).toEqual([1200]);
      expect(shard.search(spec(row(1300), { k: 1, exact: true, withPayload: { kind: 'none' } }))[0]).toMatchObject({ id: 1300, score: 0 });
      // A write to a point still behind goes to the graph at once.
      await shard.upsert(batch([1400], [row(1400, -3)]), 5, true);
      expect(own(shard, row(1400, -3))).toEqual({ id: 1400, score: 0 });
      expect(shard.graphSaves.saves).toBe(0);

      await shard.caughtUp();
      expect(shard.info(0)).toMatchObject({ points: 1550, indexedVectors: { '': 1550 } });
      for (const i of [0, 150, 1000, 1400, 1599]) expect(own(shard, row(i, i < 200 ? 5 : i === 1400 ? -3 : 0)).id).toBe(i);
      // The save waited for the catch-up and covers it: the next start replays nothing.
      await shard.idle();
      expect(shard.graphSaves.saves).toBe(1);
      expect(fx.reopen().load).toMatchObject({ points: 1550, graphsRead: 1, replayed: 0 });
    });

    it('a shutdown save during the catch-up adds the rest first; the start after it replays nothing', async () => {
      fx = await crashed();
      const shard = new Shard(fx.meta, 0, fx.db, fx.indexDir);
      expect(await shard.loadAsync()).toMatchObject({ replayed: 850 });
      shard.dispose();
      await shard.saveIndexes();
      expect(shard.info(0)).toMatchObject({ points: 1550, indexedVectors: { '': 1550 } });
      const again = fx.reopen();
      expect(again.load).toMatchObject({ points: 1550, graphsRead: 1, graphsRebuilt: 0, replayed: 0 });
      for (const i of [0, 199, 1000, 1599]) expect(own(again.shard, row(i, i < 200 ? 5 : 0))).toEqual({ id: i, score: 0 });
    });

    it('a short replay (below DEFER_REPLAY_MIN) is done before the load ends', async () => {
      fx = shardFixture(metaOf(DIM, 'Euclid'));
      await fx.shard.upsert(batch(ids(0, 100), ids(0, 100).map((i) => row(i))), 1, true);
      await fx.shard.saveIndexes();
      await fx.shard.upsert(batch(ids(100, 20), ids(100, 20).map((i) => row(i))), 2, true);
      const shard = new Shard(fx.meta, 0, fx.db, fx.indexDir);
      expect(await shard.loadAsync()).toMatchObject({ replayed: 20 });
      expect(shard.info(0)).toMatchObject({ points: 120, indexedVectors: { '': 120 } });
    });
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

  it('saves in the background every N writes, and writes wait for nothing once it is done', async () => {
    fx = shardFixture(metaOf(3, 'Cosine'), { savePolicy: { everyWrites: 20, everySeconds: 0 } });
    const ids = Array.from({ length: 15 }, (_, i) => i);
    await fx.shard.upsert(batch(ids, ids.map(vec)), 1, true);
    await fx.shard.idle();
    expect(fx.shard.graphSaves).toMatchObject({ saves: 0, unsaved: 15 });
    const more = Array.from({ length: 10 }, (_, i) => 15 + i);
    await fx.shard.upsert(batch(more, more.map(vec)), 2, true);
    await fx.shard.idle();
    expect(fx.shard.writeHold).toBeNull();
    expect(fx.shard.graphSaves).toMatchObject({ saves: 1, unsaved: 0 });
    expect(manifest(fx)).toMatchObject({ count: 25 });
    await fx.shard.upsert(batch([30, 31], [vec(30), vec(31)]), 3, true);
    expect(fx.reopen().load).toMatchObject({ points: 27, graphsRead: 1, replayed: 2 });
  });

  it('writes run back to back in one turn (a log applier) are all in the save one of them starts, never only in its file', async () => {
    fx = shardFixture(metaOf(3, 'Cosine'), { savePolicy: { everyWrites: 20, everySeconds: 0 } });
    const a = Array.from({ length: 25 }, (_, i) => i);
    const b = Array.from({ length: 10 }, (_, i) => 25 + i);
    // The first write reaches the policy's count; the second runs before anything awaits.
    const first = fx.shard.upsert(batch(a, a.map(vec)), 1, false);
    const second = fx.shard.upsert(batch(b, b.map(vec)), 2, false);
    await Promise.all([first, second]);
    await fx.shard.idle();
    expect(manifest(fx)).toMatchObject({ count: 35 });
    expect(fx.reopen().load).toMatchObject({ points: 35, graphsRead: 1, graphsRebuilt: 0, replayed: 0, rebuildReason: null });
  });

  it('a copy that never saves (saveGraphs false) reads the saved graphs but writes no file', async () => {
    fx = await filled();
    await fx.shard.saveIndexes();
    const { shard, restored } = fx.reopen(undefined, { saveGraphs: false, savePolicy: { everyWrites: 1, everySeconds: 0 } });
    expect(restored).toBe(true);
    await shard.upsert(batch([300], [vec(300)]), 3, true);
    await shard.idle();
    await shard.saveIndexes();
    expect(readdirSync(fx.indexDir).sort()).toEqual(['7-0-0-g1.hnsw', MANIFEST]);
    expect(shard.graphSaves.saves).toBe(0);
  });

  describe('unchanged rows leave the graph as it is (hnswlib updatePoint would rewire the neighbours)', () => {
    const DIM = 8;
    const rows = (ids: number[], seed = 11): number[][] => {
      const r = rng(seed);
      return ids.map(() => Array.from({ length: DIM }, () => r() * 2 - 1));
    };
    const ids = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
    const graphBytes = (f: Fixture): Buffer => {
      const file = readdirSync(f.indexDir).find((n) => n.endsWith('.hnsw'))!;
      return readFileSync(join(f.indexDir, file));
    };

    it('re-sending acknowledged batches (same vectors) changes no link; a changed vector still does', async () => {
      fx = shardFixture(metaOf(DIM, 'Euclid'));
      const all = ids(0, 600);
      await fx.shard.upsert(batch(all, rows(all)), 1, true);
      await fx.shard.saveIndexes();
      const saved = graphBytes(fx);
      // The last 200 again, as a client re-sends the batches it had in flight at a crash, and a
      // payload-only change: the points are written (new versions), their vectors are not.
      const again = ids(400, 200);
      await fx.shard.upsert(batch(again, rows(all).slice(400), again.map((id) => ({ n: id }))), 2, true);
      expect(fx.shard.graphSaves.unsaved).toBe(200);
      await fx.shard.saveIndexes();
      expect(graphBytes(fx).equals(saved)).toBe(true);
      expect(fx.shard.retrieve([450], { kind: 'all' }, { kind: 'none' })[0]!.payload).toEqual({ n: 450 });
      // A vector that did change is updated in the graph: the point is found at its new place.
      await fx.shard.upsert(batch([5], [Array.from({ length: DIM }, () => 9)]), 3, true);
      await fx.shard.saveIndexes();
      expect(graphBytes(fx).equals(saved)).toBe(false);
      expect(search(fx.shard, Array.from({ length: DIM }, () => 9))[0]).toBe(5);
    });

    it('kill -9 mid-ingest: the replay and the re-sent batches leave the graph as the writes made it', async () => {
      const policy = { savePolicy: { everyWrites: 350, everySeconds: 0 } };
      fx = shardFixture(metaOf(DIM, 'Euclid'), policy);
      const all = ids(0, 800);
      const vectors = rows(all);
      // As the worker's host sends writes: after any save writing the graph.
      const send = async (s: Shard, b: number, op: number): Promise<unknown> => {
        let hold: Promise<void> | null;
        while ((hold = s.writeHold) !== null) await hold;
        return s.upsert(batch(ids(b * 100, 100), vectors.slice(b * 100, b * 100 + 100)), op, true);
      };
      // Batches 0-4 acknowledged, 5 written but its answer lost in the kill; the last save (after
      // batch 3) covers 400 points; then the shard is abandoned without a shutdown save.
      for (let b = 0; b < 6; b++) await send(fx.shard, b, b + 1);
      await fx.shard.idle();
      expect(fx.shard.graphSaves).toMatchObject({ saves: 1, unsaved: 200 });
      const { shard, load } = fx.reopen();
      expect(load).toMatchObject({ points: 600, graphsRead: 1, graphsRebuilt: 0, replayed: 200 });
      // Payload-only writes after the load (their records outrun the save with unchanged vectors).
      await shard.updatePayload({ kind: 'set', payload: { seen: true }, key: null }, ids(0, 50), null, 7, true);
      await shard.saveIndexes();
      const afterLoad = graphBytes(fx);
      // The client re-sends from its first unacknowledged batch (5) on, then finishes the ingest.
      await send(shard, 5, 8);
      await shard.saveIndexes();
      expect(graphBytes(fx).equals(afterLoad)).toBe(true);
      // A reload replays the payload-only writes onto the saved graph: still the same links.
      await shard.updatePayload({ kind: 'set', payload: { seen: false }, key: null }, ids(100, 50), null, 9, true);
      const again = fx.reopen();
      expect(again.load).toMatchObject({ graphsRead: 1, replayed: 50 });
      await again.shard.saveIndexes();
      expect(graphBytes(fx).equals(afterLoad)).toBe(true);
      for (let b = 6; b < 8; b++) await send(again.shard, b, 10 + b);
      expect(again.shard.info(0)).toMatchObject({ points: 800, indexedVectors: { '': 800 } });
      for (const id of [0, 399, 550, 799]) expect(search(again.shard, vectors[id]!)[0]).toBe(id);
    });
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
