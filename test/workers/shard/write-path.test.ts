// The shard's one write path: the replay guard on every write (an older operation does not undo
// a newer one), versions, the version counter, and what reaches LMDB.

import { afterEach, describe, expect, it } from 'vitest';
import { batch, shardFixture, type Fixture } from './helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());

describe('replay guard', () => {
  it('an older upsert does not overwrite a newer point, and the rest of its batch applies', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1], [[1, 0]], [{ v: 'new' }]), 10, true);
    const res = await fx.shard.upsert(batch([1, 2], [[0, 1], [0, 1]], [{ v: 'old' }, { v: 'old' }]), 5, true);
    expect(res).toEqual({ applied: 1 });
    expect(fx.shard.retrieve([1, 2], { kind: 'all' }, { kind: 'all' })).toEqual([
      { id: 1, payload: { v: 'new' }, vector: Float32Array.of(1, 0) },
      { id: 2, payload: { v: 'old' }, vector: Float32Array.of(0, 1) },
    ]);
  });

  it('an older delete leaves a newer point', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1, 2], [[1, 0], [0, 1]]), 10, true);
    expect(await fx.shard.delete([1], null, 5, true)).toBe(0);
    expect(await fx.shard.delete([2], null, 11, true)).toBe(1);
    expect(fx.shard.retrieve([1, 2], { kind: 'none' }, { kind: 'none' })).toEqual([{ id: 1 }]);
  });

  it('an older payload change, vector update or vector delete leaves a newer point', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1], [[1, 0]], [{ v: 'new' }]), 10, true);
    expect(await fx.shard.updatePayload({ kind: 'clear' }, [1], null, 5, true)).toBe(0);
    expect(await fx.shard.updateVectors(batch([1], [[0, 1]]), 6, true)).toBe(0);
    expect(await fx.shard.deleteVectors([''], [1], null, 7, true)).toBe(0);
    expect(fx.shard.retrieve([1], { kind: 'all' }, { kind: 'all' })).toEqual([{ id: 1, payload: { v: 'new' }, vector: Float32Array.of(1, 0) }]);
  });

  it('the same operation applied twice (a retry) applies again: only older ones are skipped', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1], [[1, 0]]), 10, true);
    expect(await fx.shard.updatePayload({ kind: 'set', payload: { a: 1 }, key: null }, [1], null, 10, true)).toBe(1);
    expect(fx.shard.retrieve([1], { kind: 'all' }, { kind: 'none' })).toEqual([{ id: 1, payload: { a: 1 } }]);
  });
});

describe('versions and persistence', () => {
  it('every write stores the op id as the point version, and a reload finds the same state', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1, 2, 3], [[1, 0], [0, 1], [1, 1]], [{ a: 1 }, { a: 2 }, { a: 3 }]), 1, true);
    await fx.shard.updatePayload({ kind: 'set', payload: { b: true }, key: null }, null, { must: [{ key: 'a', match: { value: 2 } }] }, 2, true);
    await fx.shard.updateVectors(batch([3], [[2, 2]]), 3, true);
    await fx.shard.delete([1], null, 4, true);
    expect(fx.db.points.get([7, 0, 2])?.v).toBe(2);
    expect(fx.db.points.get([7, 0, 3])?.v).toBe(3);
    expect(fx.db.points.get([7, 0, 1])).toBeUndefined();
    expect(fx.shard.maxVersion).toBe(4);

    const { shard } = fx.reopen();
    expect(shard.maxVersion).toBe(3); // the delete left no record
    expect(shard.retrieve([1, 2, 3], { kind: 'all' }, { kind: 'all' })).toEqual(fx.shard.retrieve([1, 2, 3], { kind: 'all' }, { kind: 'all' }));
  });

  it('updatePayload and updateVectors refuse a missing id before changing anything', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1], [[1, 0]], [{ a: 1 }]), 1, true);
    await expect(fx.shard.updatePayload({ kind: 'clear' }, [1, 9], null, 2, true)).rejects.toMatchObject({ code: 'NotFound' });
    await expect(fx.shard.updateVectors(batch([1, 9], [[0, 1], [0, 1]]), 2, true)).rejects.toMatchObject({ code: 'NotFound' });
    expect(fx.shard.retrieve([1], { kind: 'all' }, { kind: 'all' })).toEqual([{ id: 1, payload: { a: 1 }, vector: Float32Array.of(1, 0) }]);
  });

  it('conditional upserts skip without error: insert_only, update_only, update_filter', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1, 2], [[1, 0], [0, 1]], [{ k: 'a' }, { k: 'b' }]), 1, true);
    const insertOnly = await fx.shard.upsert(batch([1, 3], [[5, 5], [5, 5]]), 2, true, { mode: 'insert_only', updateFilter: null });
    const updateOnly = await fx.shard.upsert(batch([4], [[5, 5]]), 3, true, { mode: 'update_only', updateFilter: null });
    const filtered = await fx.shard.upsert(batch([1, 2], [[6, 6], [6, 6]], [{ k: 'x' }, { k: 'x' }]), 4, true, {
      mode: 'upsert',
      updateFilter: { must: [{ key: 'k', match: { value: 'b' } }] },
    });
    expect([insertOnly, updateOnly, filtered]).toEqual([{ applied: 1 }, { applied: 0 }, { applied: 1 }]);
    expect(fx.shard.retrieve([1, 2, 3, 4], { kind: 'all' }, { kind: 'none' })).toEqual([
      { id: 1, payload: { k: 'a' } },
      { id: 2, payload: { k: 'x' } },
      { id: 3, payload: {} },
    ]);
  });
});
