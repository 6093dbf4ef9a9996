// The slice hash against values computed by an independent SipHash-2-4 (zero key) over the same
// canonical id bytes, and the slices' partition properties over many ids.

import { describe, expect, it } from 'vitest';
import { inSlice, sliceHash } from '../../src/shared/point-slice.js';

describe('slice hash', () => {
  it('is zero-key SipHash-2-4 of the little-endian u64 or the UUID bytes', () => {
    expect(sliceHash(0)).toBe(16738165381834614119n);
    expect(sliceHash(1)).toBe(9224715256000962398n);
    expect(sliceHash(42)).toBe(1135563785245924819n);
    expect(sliceHash(12345678901234)).toBe(12084329632337560927n);
    expect(sliceHash('550e8400-e29b-41d4-a716-446655440000')).toBe(17712879580654916868n);
  });

  it('partitions ids: each in exactly one slice of a total, and slice i of 4 inside slice i of 2', () => {
    for (let id = 0; id < 500; id++) {
      expect([0, 1, 2, 3].filter((i) => inSlice(id, 4, i))).toHaveLength(1);
      if (inSlice(id, 4, 0)) expect(inSlice(id, 2, 0)).toBe(true);
      if (inSlice(id, 4, 3)) expect(inSlice(id, 2, 1)).toBe(true);
    }
  });
});
