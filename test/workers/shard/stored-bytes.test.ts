// A shard's stored bytes (strict mode's collection size limits): the payloads' JSON kept in step
// through upserts, payload operations and deletes, and read back the same after a reload; the
// vectors' data counted by width (dense float32, sparse 8 bytes an entry).

import { afterEach, describe, expect, it } from 'vitest';
import type { PointBatch } from '../../../src/shared/protocol.js';
import { batch, metaOf, shardFixture, type Fixture } from './helpers.js';

let fx: Fixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const json = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

describe('stored bytes', () => {
  it('follow the payloads through upserts, payload operations and deletes, and survive a reload', async () => {
    fx = shardFixture(metaOf(4));
    expect(fx.shard.storedBytes()).toEqual({ points: 0, vectors: 0, payload: 0 });
    const a = { city: 'Zürich', n: 1 };
    const b = { tags: ['x', 'y'] };
    await fx.shard.upsert(batch([1, 2, 3], [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], [a, b, null]), 1, true);
    // Three dense rows of 4 float32; 'Zürich' counts its two-byte ü.
    expect(fx.shard.storedBytes()).toEqual({ points: 3, vectors: 3 * 16, payload: json(a) + json(b) });
    await fx.shard.updatePayload({ kind: 'set', payload: { more: 'text' }, key: null }, [3], null, 2, true);
    await fx.shard.updatePayload({ kind: 'clear' }, [2], null, 3, true);
    expect(fx.shard.storedBytes().payload).toBe(json(a) + json({ more: 'text' }));
    await fx.shard.delete([1], null, 4, true);
    expect(fx.shard.storedBytes()).toEqual({ points: 2, vectors: 2 * 16, payload: json({ more: 'text' }) });
    const { shard } = fx.reopen();
    expect(shard.storedBytes()).toEqual({ points: 2, vectors: 2 * 16, payload: json({ more: 'text' }) });
  });

  it('count sparse vectors at 8 bytes an entry, and only vectors a point has', async () => {
    const meta = metaOf(2);
    meta.config.sparse_vectors = { s: { modifier: 'none' } };
    fx = shardFixture(meta);
    // Point 1: the dense row and a 3-entry sparse vector; point 2: a 1-entry sparse vector only.
    const b: PointBatch = {
      ids: [1, 2],
      payloads: [null, null],
      vectors: { '': { data: Float32Array.from([1, 0]), present: Uint8Array.from([1, 0]) } },
      sparse: { s: { indices: Uint32Array.from([1, 2, 3, 7]), values: Float32Array.from([1, 1, 1, 1]), offsets: Int32Array.from([0, 3, 4]), present: Uint8Array.from([1, 1]) } },
    };
    await fx.shard.upsert(b, 1, true);
    expect(fx.shard.storedBytes().vectors).toBe(8 + 4 * 8);
  });
});
