// MultiSpace alone: MaxSim per distance against sums written out here, Qdrant's final step for
// distances, uint8 rows (cast, cosine per pair), the record bytes round trip, and the counts.

import { describe, expect, it } from 'vitest';
import { MultiSpace, multiScore, toByte } from '../../../src/workers/index/multi-space.js';

const packed = (rows: number[][]): Float32Array => Float32Array.from(rows.flat());

describe('MultiSpace', () => {
  const doc = [
    [1, 0],
    [0, 2],
  ];
  const query = [
    [1, 1],
    [3, 0],
  ];

  it('Dot: per query row its best dot product, summed', () => {
    const s = new MultiSpace('m', 2, 'Dot', 'float32');
    s.set(0, packed(doc));
    // [1,1]: max(1, 2) = 2; [3,0]: max(3, 0) = 3.
    expect(s.score(packed(query), 0)).toBe(5);
    expect(s.maxSim(packed(query), 0)).toBe(5);
    expect(s.higherIsBetter).toBe(true);
  });

  it('Euclid: the root of the summed best squared distances (the final step on the whole sum)', () => {
    const s = new MultiSpace('m', 2, 'Euclid', 'float32');
    s.set(3, packed(doc));
    // [1,1]: min(1, 2) = 1; [3,0]: min(4, 13) = 4; raw -5, reported sqrt(5).
    expect(s.maxSim(packed(query), 3)).toBe(-5);
    expect(s.score(packed(query), 3)).toBeCloseTo(Math.sqrt(5), 12);
    expect(s.higherIsBetter).toBe(false);
  });

  it('Manhattan: the summed best L1 distances', () => {
    const s = new MultiSpace('m', 2, 'Manhattan', 'float32');
    s.set(0, packed(doc));
    // [1,1]: min(1, 2) = 1; [3,0]: min(2, 5) = 2.
    expect(s.score(packed(query), 0)).toBe(3);
    expect(multiScore('Manhattan', 'float32', packed(query), packed(doc), 2)).toBe(3);
  });

  it('uint8: values cast as Qdrant casts, cosine computed per pair', () => {
    expect([300, 255.9, -1, 1.5, 0.9, Number.NaN].map(toByte)).toEqual([255, 255, 0, 1, 0, 0]);
    const s = new MultiSpace('m', 2, 'Cosine', 'uint8');
    s.set(1, packed([[3, 4], [0, 0]]));
    expect([...s.vector(1)!]).toEqual([3, 4, 0, 0]);
    // [4,3] . [3,4] / 25 = 0.96; against the zero row: 0.
    expect(s.score(packed([[4, 3]]), 1)).toBeCloseTo(0.96, 12);
    expect(s.stored(1)!.byteLength).toBe(4);
    expect(s.bytes).toBe(4);
  });

  it('keeps a copy, round-trips its record bytes, and counts what it holds', () => {
    const s = new MultiSpace('m', 2, 'Dot', 'float32');
    const v = packed(doc);
    s.set(0, v);
    v[0] = 99;
    expect(s.vector(0)![0]).toBe(1);
    expect([...s.decode(s.stored(0)!)]).toEqual([1, 0, 0, 2]);
    expect(s.rowsOf(0)!.map((r) => [...r])).toEqual(doc);
    s.set(2, packed([[1, 1]]));
    expect(s.size).toBe(2);
    expect([...s.slots()]).toEqual([0, 2]);
    s.set(0, packed([[5, 5]]));
    expect(s.size).toBe(2);
    expect(s.bytes).toBe(16);
    s.remove(0);
    s.remove(0);
    expect(s.size).toBe(1);
    expect(s.has(0)).toBe(false);
    expect(s.maxSim(packed(query), 0)).toBeNaN();
  });
});
