// One dense vector space: presence, graph membership, and the background rebuild when the graph
// parameters change (the old graph serves meanwhile; writes during the rebuild are kept).

import { describe, expect, it } from 'vitest';
import { VectorSpace } from '../../../src/workers/shard/vector-space.js';

const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setImmediate(r));
};

const v = (i: number): Float32Array => Float32Array.from([Math.sin(i), Math.cos(i)]);

describe('VectorSpace', () => {
  it('tracks presence, count and graph membership; grows past its first presence block', () => {
    const space = new VectorSpace('', 2, 'Euclid', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false });
    space.set(0, v(0));
    space.set(5000, v(1));
    space.set(0, undefined);
    expect([space.has(0), space.has(5000), space.count()]).toEqual([false, true, 1]);
    expect(space.presentSlots(10_000)).toEqual([5000]);
    expect(space.index?.size).toBe(1);
    space.set(7, v(2), false); // a load whose graph comes from disk: the row only
    expect(space.index?.size).toBe(1);
  });

  it('has no graph for Manhattan or m = 0', () => {
    expect(new VectorSpace('', 2, 'Manhattan', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false }).index).toBeNull();
    expect(new VectorSpace('', 2, 'Dot', { m: 0, ef_construct: 100, quantization: null, originalsOnDisk: false }).graphParams()).toBeNull();
  });

  it('rebuilds in the background with new parameters, keeping writes made meanwhile', async () => {
    const space = new VectorSpace('', 2, 'Euclid', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false });
    for (let i = 0; i < 600; i++) space.set(i, v(i));
    const old = space.index;
    space.reconfigure({ m: 8, ef_construct: 50, quantization: null, originalsOnDisk: false }, 600);
    expect(space.rebuilding).toBe(true);
    expect(space.index).toBe(old); // serves until the new graph is complete
    space.set(600, v(600));
    space.set(1, undefined);
    await until(() => !space.rebuilding);
    expect(space.index).not.toBe(old);
    expect(space.index?.params).toMatchObject({ m: 8, efConstruct: 50 });
    expect(space.index?.size).toBe(600);
    expect(space.index?.search(v(600), 1, 50)).toEqual([600]);
  });

  it('same parameters: no rebuild; m = 0: the graph goes at once; dispose stops a rebuild', async () => {
    const space = new VectorSpace('', 2, 'Euclid', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false });
    space.set(0, v(0));
    space.reconfigure({ m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false }, 1);
    expect(space.rebuilding).toBe(false);
    space.reconfigure({ m: 32, ef_construct: 100, quantization: null, originalsOnDisk: false }, 1);
    space.dispose();
    expect(space.rebuilding).toBe(false);
    const before = space.index;
    await until(() => false);
    expect(space.index).toBe(before);
    space.reconfigure({ m: 0, ef_construct: 100, quantization: null, originalsOnDisk: false }, 1);
    expect(space.index).toBeNull();
  });
});

/** Brute-force top k (slot, score) of `rows` for a metric where higher or lower is better. */
function bruteTop(rows: Map<number, Float32Array>, q: Float32Array, k: number, score: (a: Float32Array, b: Float32Array) => number, higher: boolean): number[] {
  return [...rows]
    .map(([slot, r]) => ({ slot, s: score(q, r) }))
    .sort((a, b) => (higher ? b.s - a.s : a.s - b.s) || a.slot - b.slot)
    .slice(0, k)
    .map((x) => x.slot);
}

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('VectorSpace: one in-memory copy of each vector (issue 14)', () => {
  const dim = 8;
  const rand = (seed: number): (() => number) => {
    let x = seed;
    return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  };
  const rows = (n: number, seed: number): Map<number, Float32Array> => {
    const r = rand(seed);
    const out = new Map<number, Float32Array>();
    for (let i = 0; i < n; i++) out.set(i, Float32Array.from({ length: dim }, r));
    return out;
  };

  it('a vector with a graph keeps no store: its rows are read back from the graph, exactly', () => {
    const space = new VectorSpace('', dim, 'Dot', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false });
    const data = rows(300, 1);
    for (const [slot, r] of data) space.set(slot, r);
    expect(space.storeBacked).toBe(false);
    // Only the presence bytes count as vectors: the rows live in the graph.
    expect(space.memory().vectors).toBeLessThan(2048);
    expect(space.memory().graph).toBeGreaterThan(300 * dim * 4);
    for (const slot of [0, 17, 299]) expect(Array.from(space.vector(slot))).toEqual(Array.from(data.get(slot)!));
    expect(space.score(17, data.get(3)!)).toBeCloseTo(dot(data.get(3)!, data.get(17)!), 5);
  });

  it('Manhattan and m = 0 keep their rows in a store, the one copy they have', () => {
    for (const space of [new VectorSpace('', dim, 'Manhattan', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false }), new VectorSpace('', dim, 'Dot', { m: 0, ef_construct: 100, quantization: null, originalsOnDisk: false })]) {
      const data = rows(10, 2);
      for (const [slot, r] of data) space.set(slot, r);
      expect(space.storeBacked).toBe(true);
      expect(space.index).toBeNull();
      expect(Array.from(space.vector(4))).toEqual(Array.from(data.get(4)!));
      expect(space.memory()).toMatchObject({ graph: 0 });
      expect(space.memory().vectors).toBeGreaterThanOrEqual(10 * dim * 4);
    }
  });

  it('rows staged during a load are dropped once a graph holds them (buildGraph), and searches then read the graph', () => {
    const space = new VectorSpace('', dim, 'Euclid', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false });
    const data = rows(200, 3);
    for (const [slot, r] of data) space.set(slot, r, false);
    expect(space.storeBacked).toBe(true);
    expect(space.index?.size).toBe(0);
    space.buildGraph(space.graphParams()!, 200);
    expect(space.storeBacked).toBe(false);
    expect(space.index?.size).toBe(200);
    expect(Array.from(space.vector(150))).toEqual(Array.from(data.get(150)!));
  });

  it('m > 0 -> 0 copies the rows out of the graph; 0 -> m > 0 rebuilds from the store and then drops it', async () => {
    const space = new VectorSpace('', dim, 'Dot', { m: 16, ef_construct: 100, quantization: null, originalsOnDisk: false });
    const data = rows(300, 4);
    for (const [slot, r] of data) space.set(slot, r);
    space.reconfigure({ m: 0, ef_construct: 100, quantization: null, originalsOnDisk: false }, 300);
    expect(space.index).toBeNull();
    expect(space.storeBacked).toBe(true);
    expect(Array.from(space.vector(299))).toEqual(Array.from(data.get(299)!));
    space.reconfigure({ m: 8, ef_construct: 100, quantization: null, originalsOnDisk: false }, 300);
    expect(space.rebuilding).toBe(true);
    space.set(5, data.get(6)!); // a write during the rebuild lands in the new graph too
    await until(() => !space.rebuilding);
    expect(space.storeBacked).toBe(false);
    expect(space.index?.size).toBe(300);
    expect(Array.from(space.vector(5))).toEqual(Array.from(data.get(6)!));
  });

  it('exactScores equals brute force, read back (few candidates) or by the native walk (many), Dot and Euclid', () => {
    for (const distance of ['Dot', 'Euclid'] as const) {
      const space = new VectorSpace('', dim, distance, { m: 4, ef_construct: 8, quantization: null, originalsOnDisk: false });
      const data = rows(2000, 5);
      for (const [slot, r] of data) space.set(slot, r);
      for (let slot = 0; slot < 2000; slot += 7) {
        space.set(slot, undefined);
        data.delete(slot);
      }
      const higher = distance === 'Dot';
      const score = higher ? dot : (a: Float32Array, b: Float32Array) => Math.sqrt(a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0));
      const q = Float32Array.from({ length: dim }, rand(9));
      const run = (cands: number[]): number[] => {
        const got: { slot: number; s: number }[] = [];
        space.exactScores(q, 10, cands, cands.length, data.size, (slot) => space.has(slot), (slot, s) => got.push({ slot, s }));
        return got
          .sort((a, b) => (higher ? b.s - a.s : a.s - b.s) || a.slot - b.slot)
          .slice(0, 10)
          .map((x) => x.slot);
      };
      // Every live slot: the native walk.
      expect(run([...data.keys()])).toEqual(bruteTop(data, q, 10, score, higher));
      // A few candidates: read back one by one.
      const few = [...data.keys()].filter((s) => s % 97 === 1);
      const fewRows = new Map(few.map((s) => [s, data.get(s)!]));
      expect(run(few)).toEqual(bruteTop(fewRows, q, 10, score, higher));
      // Half of them: the walk, restricted to the candidates.
      const half = [...data.keys()].filter((s) => s % 2 === 0);
      const halfRows = new Map(half.map((s) => [s, data.get(s)!]));
      expect(run(half)).toEqual(bruteTop(halfRows, q, 10, score, higher));
    }
  });
});
