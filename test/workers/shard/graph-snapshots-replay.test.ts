// Graph snapshots and the writes after them: only the writes after a save are replayed at the
// next load (points written, updated, deleted, vectors removed), before it ends or, for a long
// replay (loadAsync), in the background; saves happen every N writes and cover writes run back to
// back; a copy that never saves writes no file; rows written again unchanged leave the saved
// graph as it is. The files and the manifest themselves: graph-snapshots.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Shard } from '../../../src/workers/shard/shard.js';
import { rng } from '../../helpers/random.js';
import { batch, metaOf, shardFixture, spec, type Fixture } from './helpers.js';
import { exact, filled, manifest, MANIFEST, search, vec, writeManifest } from './graph-helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());


describe('GraphSnapshots', () => {
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
  describe.skipIf(process.env.QUIVER_SKIP_NATIVE_BUILD === '1')('a quantized graph', () => {
    it('after kill -9, rows replayed in the background are found beside the graph, and stay found through a PATCH to another kind', async () => {
      const r = rng(8);
      // Unit rows: a shard takes Cosine vectors normalized (the service normalizes them).
      const unit = (v: number[]): number[] => v.map((x) => x / Math.hypot(...v));
      const rows = (n: number): number[][] => Array.from({ length: n }, () => unit(Array.from({ length: 8 }, () => r() * 2 - 1)));
      const meta = metaOf(8, 'Cosine', { m: 8, ef_construct: 32 });
      meta.config.quantization_config = { scalar: { type: 'int8' } };
      meta.config.vectors['']!.on_disk = true;
      fx = shardFixture(meta);
      const first = rows(1200);
      await fx.shard.upsert(batch(first.map((_, i) => i), first), 1, true);
      while (fx.shard.info(0).indexedVectors['']! < 1200) await new Promise((res) => setTimeout(res, 5));
      await fx.shard.saveIndexes();
      // 700 more, never saved (a kill -9): replayed in the background at the next load.
      const more = rows(700);
      await fx.shard.upsert(batch(more.map((_, i) => 1200 + i), more), 2, true);
      fx.shard.dispose();
      const shard = new Shard(meta, 0, fx.db, fx.indexDir, {});
      expect(await shard.loadAsync()).toMatchObject({ points: 1900, graphsRead: 1, graphsRebuilt: 0, replayed: 700 });
      expect(shard.info(0).indexedVectors['']).toBe(1200);
      const own = (i: number): unknown => shard.search(spec(more[i]!, { k: 1, withPayload: { kind: 'none' }, quantization: { ignore: false, rescore: true, oversampling: 4 } }))[0]?.id;
      for (const i of [0, 350, 699]) expect(own(i)).toBe(1200 + i);
      // A PATCH to binary before they are in: the int8 graph keeps serving, with them in it.
      const patched = structuredClone(meta);
      patched.config.quantization_config = { binary: {} };
      shard.updateMeta(patched);
      expect(shard.info(0).indexedVectors['']).toBe(1900);
      for (const i of [0, 350, 699]) expect(own(i)).toBe(1200 + i);
      while (shard.rebuilding) await new Promise((res) => setTimeout(res, 5));
      shard.dispose();
    });
  });
});
