// checkPoints and packBatch, the upsert path's forms (issue 14, memory during an ingest): each
// dense vector of a request is a row of one array per vector name, not an array of its own, and
// a shard that takes every point of the request in order gets that array moved as it is; any
// other split is copied out row by row, with the presence mask. Values and errors as before.

import { describe, expect, it } from 'vitest';
import { checkPoints, checkVector, packBatch } from '../../../src/workers/service/request-forms.js';
import { QuiverError } from '../../../src/shared/errors.js';
import { DEFAULT_HNSW, type CollectionMeta } from '../../../src/shared/types.js';

const meta: CollectionMeta = {
  id: 1,
  name: 'c',
  created_at: '2026-01-01T00:00:00Z',
  config: {
    vectors: { a: { size: 2, distance: 'Dot' }, b: { size: 3, distance: 'Cosine' } },
    sparse_vectors: { s: { modifier: 'none' } },
    shard_number: 2,
    hnsw_config: { ...DEFAULT_HNSW },
    on_disk_payload: false,
    payload_schema: {},
  },
};

describe('checkPoints', () => {
  it("places each point's dense vectors as rows of one array per name, normalised for Cosine", () => {
    const points = checkPoints(
      meta,
      [
        { id: 1, vector: { a: [1, 2], b: [3, 0, 4] } },
        { id: 2, vector: { a: [5, 6], b: [0, 2, 0] } },
      ],
      false,
    );
    const [p, q] = points;
    expect(Array.from(p!.vectors.a!)).toEqual([1, 2]);
    expect(Array.from(q!.vectors.a!)).toEqual([5, 6]);
    expect(Array.from(p!.vectors.b!)).toEqual([Math.fround(0.6), 0, Math.fround(0.8)]);
    expect(Array.from(q!.vectors.b!)).toEqual([0, 1, 0]);
    // One buffer per name, point i at row i.
    expect(q!.vectors.a!.buffer).toBe(p!.vectors.a!.buffer);
    expect(p!.vectors.a!.buffer.byteLength).toBe(2 * 2 * 4);
    expect(q!.vectors.a!.byteOffset).toBe(2 * 4);
    expect(q!.vectors.b!.byteOffset).toBe(3 * 4);
  });

  it('refuses a wrong dimension, an unknown name and a non-finite value as before', () => {
    const bad = (vector: Record<string, number[]>): string => {
      try {
        checkPoints(meta, [{ id: 1, vector: { a: [0, 0] } }, { id: 2, vector }], false);
      } catch (e) {
        expect(e).toBeInstanceOf(QuiverError);
        return (e as QuiverError).message;
      }
      throw new Error('accepted');
    };
    expect(bad({ a: [1, 2, 3] })).toBe("Dimension mismatch for vector 'a': expected 2, got 3");
    expect(bad({ zz: [1, 2] })).toMatch(/zz/);
    expect(bad({ a: [1, Number.MAX_VALUE] })).toBe("Vector 'a' has a value outside the float32 range at index 1: 1.7976931348623157e+308");
  });

  it('checkVector without a row array gives a new array of its own', () => {
    const v = checkVector(meta, 'a', [1, 2]);
    expect(v.buffer.byteLength).toBe(8);
    expect(Array.from(v)).toEqual([1, 2]);
  });
});

describe('packBatch', () => {
  it("moves the request's array as it is when the shard takes every point in order", () => {
    const points = checkPoints(meta, [1, 2, 3].map((id) => ({ id, vector: { a: [id, -id] } })), false);
    const before = points[0]!.vectors.a!.buffer;
    const { batch, transfer } = packBatch(meta, points);
    expect(batch.vectors.a!.data.buffer).toBe(before);
    expect(batch.vectors.a!.present).toBeNull();
    expect(Array.from(batch.vectors.a!.data)).toEqual([1, -1, 2, -2, 3, -3]);
    expect(transfer).toEqual([before]);
    expect(batch.vectors.b).toBeUndefined();
  });

  it('copies the rows of a shard that takes some of the points, in its own order', () => {
    const points = checkPoints(meta, [1, 2, 3, 4].map((id) => ({ id, vector: { a: [id, 10 * id] } })), false);
    const { batch, transfer } = packBatch(meta, [points[3]!, points[1]!]);
    expect(batch.ids).toEqual([4, 2]);
    expect(Array.from(batch.vectors.a!.data)).toEqual([4, 40, 2, 20]);
    expect(batch.vectors.a!.data.buffer).not.toBe(points[0]!.vectors.a!.buffer);
    expect(transfer).toEqual([batch.vectors.a!.data.buffer]);
  });

  it('copies, with a presence mask, a name that only some points carry', () => {
    const points = checkPoints(
      meta,
      [
        { id: 1, vector: { a: [1, 1] } },
        { id: 2, vector: { b: [0, 0, 1] } },
        { id: 3, vector: { a: [3, 3], b: [0, 1, 0] } },
      ],
      false,
    );
    const { batch } = packBatch(meta, points);
    expect(Array.from(batch.vectors.a!.data)).toEqual([1, 1, 3, 3]);
    expect(Array.from(batch.vectors.a!.present!)).toEqual([1, 0, 1]);
    expect(Array.from(batch.vectors.b!.data)).toEqual([0, 0, 1, 0, 1, 0]);
    expect(Array.from(batch.vectors.b!.present!)).toEqual([0, 1, 1]);
  });
});
