// Rows held by a graph are read back from LMDB (VectorSpace.readRows, Shard#readRow): a write not
// committed yet is read from the shard's pending vectors, a secondary copy trusts a record only at
// its own version, and whatever is read is the vector the point holds now.

import { afterEach, describe, expect, it } from 'vitest';
import { bytesVector } from '../../../src/shared/db.js';
import { Shard } from '../../../src/workers/shard/shard.js';
import { batch, shardFixture, spec, type Fixture } from './helpers.js';

let fx: Fixture;
afterEach(async () => fx.close());

const KEY = (id: number): [number, number, number] => [7, 0, id];

describe('rows read back for exact scoring and with_vector', () => {
  it('an unflushed write (wait=false) is scored with its new vector and returned by with_vector right after it', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1, 2], [[1, 0], [0.5, 0.5]]), 1, true);
    const write = fx.shard.upsert(batch([1], [[0, 1]]), 2, false);
    // What makes this case: LMDB still holds the old record until the put commits.
    expect(Array.from(bytesVector(fx.db.points.get(KEY(1))!.x['']!))).toEqual([1, 0]);

    const hits = fx.shard.search(spec([0, 1], { exact: true, withVector: { kind: 'all' } }));
    expect(hits.map((h) => [h.id, h.score, Array.from(h.vector as Float32Array)])).toEqual([
      [1, 1, [0, 1]],
      [2, 0.5, [0.5, 0.5]],
    ]);
    expect(fx.shard.retrieve([1], { kind: 'none' }, { kind: 'all' })).toEqual([{ id: 1, vector: Float32Array.of(0, 1) }]);
    // Candidates named by id (re-ranking) are scored from the same rows.
    expect(fx.shard.search(spec([0, 1], { only: [1] })).map((h) => h.score)).toEqual([1]);

    await write;
    expect(Array.from(bytesVector(fx.db.points.get(KEY(1))!.x['']!))).toEqual([0, 1]);
    expect(fx.shard.search(spec([0, 1], { exact: true })).map((h) => [h.id, h.score])).toEqual([
      [1, 1],
      [2, 0.5],
    ]);
    expect(fx.shard.retrieve([1], { kind: 'none' }, { kind: 'all' })).toEqual([{ id: 1, vector: Float32Array.of(0, 1) }]);
  });

  it('unflushed writes of other kinds keep the right row: a payload change, a vector update, a slot reused after a delete', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1, 2], [[1, 0], [0, 1]]), 1, true);
    const writes = [
      fx.shard.updateVectors(batch([1], [[3, 4]]), 2, false),
      fx.shard.updatePayload({ kind: 'set', payload: { a: 1 }, key: null }, [1], null, 3, false),
      fx.shard.delete([2], null, 4, false),
      fx.shard.upsert(batch([5], [[-1, 2]]), 5, false),
    ];
    const read = (): unknown =>
      fx.shard.search(spec([1, 1], { exact: true, withVector: { kind: 'all' }, withPayload: { kind: 'none' } })).map((h) => [h.id, h.score, Array.from(h.vector as Float32Array)]);
    const expected = [
      [1, 7, [3, 4]],
      [5, 1, [-1, 2]],
    ];
    expect(read()).toEqual(expected);
    await Promise.all(writes);
    expect(read()).toEqual(expected);
  });

  it('two unflushed writes of one point: the newer is read while the older commits', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1], [[1, 0]]), 1, true);
    const first = fx.shard.upsert(batch([1], [[0, 1]]), 2, false);
    const second = fx.shard.upsert(batch([1], [[2, 2]]), 3, false);
    await first;
    expect(fx.shard.retrieve([1], { kind: 'none' }, { kind: 'all' })).toEqual([{ id: 1, vector: Float32Array.of(2, 2) }]);
    await second;
    expect(fx.shard.retrieve([1], { kind: 'none' }, { kind: 'all' })).toEqual([{ id: 1, vector: Float32Array.of(2, 2) }]);
  });

  it('a secondary copy does not take a record its primary wrote at another version: it keeps its own row', async () => {
    fx = shardFixture();
    await fx.shard.upsert(batch([1], [[1, 0]]), 1, true);
    const copy = new Shard(fx.meta, 0, fx.db, fx.indexDir, { secondary: true });
    copy.load();
    // The primary commits a write the copy has not applied yet.
    await fx.shard.upsert(batch([1], [[0, 1]]), 2, true);
    expect(copy.retrieve([1], { kind: 'none' }, { kind: 'all' })).toEqual([{ id: 1, vector: Float32Array.of(1, 0) }]);
    expect(copy.search(spec([1, 0], { exact: true })).map((h) => h.score)).toEqual([1]);
    // Applied on the copy ahead of a record the primary has not written: its own row again.
    await copy.upsert(batch([1], [[3, 0]]), 3, false);
    expect(copy.retrieve([1], { kind: 'none' }, { kind: 'all' })).toEqual([{ id: 1, vector: Float32Array.of(3, 0) }]);
    copy.dispose();
  });
});
