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
    const space = new VectorSpace('', 2, 'Euclid', { m: 16, ef_construct: 100 });
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
    expect(new VectorSpace('', 2, 'Manhattan', { m: 16, ef_construct: 100 }).index).toBeNull();
    expect(new VectorSpace('', 2, 'Dot', { m: 0, ef_construct: 100 }).graphParams()).toBeNull();
  });

  it('rebuilds in the background with new parameters, keeping writes made meanwhile', async () => {
    const space = new VectorSpace('', 2, 'Euclid', { m: 16, ef_construct: 100 });
    for (let i = 0; i < 600; i++) space.set(i, v(i));
    const old = space.index;
    space.reconfigure({ m: 8, ef_construct: 50 }, 600);
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
    const space = new VectorSpace('', 2, 'Euclid', { m: 16, ef_construct: 100 });
    space.set(0, v(0));
    space.reconfigure({ m: 16, ef_construct: 100 }, 1);
    expect(space.rebuilding).toBe(false);
    space.reconfigure({ m: 32, ef_construct: 100 }, 1);
    space.dispose();
    expect(space.rebuilding).toBe(false);
    const before = space.index;
    await until(() => false);
    expect(space.index).toBe(before);
    space.reconfigure({ m: 0, ef_construct: 100 }, 1);
    expect(space.index).toBeNull();
  });
});
