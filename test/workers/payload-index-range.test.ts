// The ordered payload indexes (integer, float, datetime): range bounds, integer lookups, the
// sorted (value, slot) column and its lower bounds, and other-typed values.

import { describe, expect, it } from 'vitest';
import { RangeIndex } from '../../src/workers/index/payload-index.js';
import type { JsonValue } from '../../src/shared/types.js';
import { add, build, cands, expectCovers, radius } from '../helpers/payload-index.js';

// ---- ordered indexes ---------------------------------------------------------------------------

describe('integer index', () => {
  const rows = [-2, -1, 0, 1, 2, 3];

  it('range: each bound, inclusive and exclusive', () => {
    const index = build({ type: 'integer' }, rows);
    expect(cands(index, { range: { gt: 0 } })).toEqual([3, 4, 5]);
    expect(cands(index, { range: { gte: 0 } })).toEqual([2, 3, 4, 5]);
    expect(cands(index, { range: { lt: 1 } })).toEqual([0, 1, 2]);
    expect(cands(index, { range: { lte: 1 } })).toEqual([0, 1, 2, 3]);
    expect(cands(index, { range: { gte: 1, lte: 2 } })).toEqual([3, 4]);
    expect(cands(index, { range: { gt: -2, lt: 3 } })).toEqual([1, 2, 3, 4]);
    expect(cands(index, { range: { gt: 0.5, lt: 2.5 } })).toEqual([3, 4]);
    expect(cands(index, { range: {} })).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('range: the tighter of two lower (or upper) bounds wins', () => {
    const index = build({ type: 'integer' }, rows);
    expect(cands(index, { range: { gt: 1, gte: 0 } })).toEqual([4, 5]);
    expect(cands(index, { range: { gt: -5, gte: 2 } })).toEqual([4, 5]);
    expect(cands(index, { range: { lt: 0, lte: 2 } })).toEqual([0, 1]);
    expect(cands(index, { range: { lt: 3, lte: -2 } })).toEqual([0]);
  });

  it('range: empty and crossed intervals give no candidates', () => {
    const index = build({ type: 'integer' }, rows);
    expect(cands(index, { range: { gt: 3 } })).toEqual([]);
    expect(cands(index, { range: { lt: -2 } })).toEqual([]);
    expect(cands(index, { range: { gt: 2, lt: 1 } })).toEqual([]);
    expect(cands(index, { range: { gt: 1, lt: 2 } })).toEqual([]);
  });

  it('range: null bounds are no bounds', () => {
    const index = build({ type: 'integer' }, rows);
    expect(cands(index, { range: { gt: null, lte: 0 } })).toEqual([0, 1, 2]);
  });

  it('match value and any: the slots holding the integers', () => {
    const index = build({ type: 'integer' }, [[1, 5], 5, 5, [3], 4, 50]);
    expect(cands(index, { match: { value: 5 } })).toEqual([0, 1, 2]);
    expect(cands(index, { match: { any: [1, 3] } })).toEqual([0, 3]);
    expect(cands(index, { match: { any: [5, 50] } })).toEqual([0, 1, 2, 5]);
    expect(cands(index, { match: { value: 6 } })).toEqual([]);
    expect(cands(index, { match: { value: 'five' } })).toEqual([]);
  });

  it('a multi-valued slot is one candidate, though two column entries', () => {
    const index = build({ type: 'integer' }, [[1, 2, 2]]);
    expect(cands(index, { range: { gte: 0 } })).toEqual([0]);
    expect(index.points).toBe(1);
    expect([...(index as RangeIndex).column().values]).toEqual([1, 2, 2]);
  });

  it('floats, strings and booleans are other-typed: candidates of every range and match', () => {
    const index = build({ type: 'integer' }, [1, 1.5, '1', true, null, [2, 2.5]]);
    expect(index.points).toBe(2);
    // The evaluator accepts slot 1 for gt 1 (1.5 > 1) and slot 5 for gt 2 (2.5 > 2).
    expectCovers(index, { range: { gt: 1 } }, [1, 5], [0, 4]);
    expectCovers(index, { range: { gt: 2 } }, [1, 5], [0, 4]);
    expectCovers(index, { match: { value: 1 } }, [0], [4]);
    expectCovers(index, { match: { value: '1' } }, [2], [0, 4]);
    expectCovers(index, { match: { any: ['1'] } }, [2], [0, 4]);
    expectCovers(index, { match: { value: true } }, [3], [0, 4]);
  });

  it('cannot narrow except, text or geo conditions', () => {
    const index = build({ type: 'integer' }, rows);
    expect(cands(index, { match: { except: [1] } })).toBeNull();
    expect(cands(index, { match: { text: '1' } })).toBeNull();
    expect(cands(index, radius(0, 0, 1000))).toBeNull();
  });

  it('column(): (value, slot) pairs in ascending order, ties by slot', () => {
    const index = build({ type: 'integer' }, [3, 1, 2, [9, 2], 0]) as RangeIndex;
    const { values, slots } = index.column();
    expect([...values]).toEqual([0, 1, 2, 2, 3, 9]);
    expect([...slots]).toEqual([4, 1, 2, 3, 0, 3]);
  });

  it('-0 is the integer 0', () => {
    const index = build({ type: 'integer' }, [-0, 1]);
    expect(cands(index, { match: { value: 0 } })).toEqual([0]);
    expect(cands(index, { range: { gte: 0, lt: 1 } })).toEqual([0]);
    expect(cands(index, { range: { lt: 0 } })).toEqual([]);
  });

  it('lowerBound: first position >= x, or > x when strict', () => {
    const index = build({ type: 'integer' }, [3, 1, 2, [9, 2]]) as RangeIndex; // 1 2 2 3 9
    expect(index.lowerBound(2)).toBe(1);
    expect(index.lowerBound(2, true)).toBe(3);
    expect(index.lowerBound(0)).toBe(0);
    expect(index.lowerBound(0, true)).toBe(0);
    expect(index.lowerBound(9)).toBe(4);
    expect(index.lowerBound(9, true)).toBe(5);
    expect(index.lowerBound(10)).toBe(5);
    expect(index.lowerBound(2.5)).toBe(3);
  });

  it('the column follows adds and removes made after it was read', () => {
    const index = build({ type: 'integer' }, [5, 6]) as RangeIndex;
    expect([...index.column().values]).toEqual([5, 6]);
    add(index, 2, 0);
    expect([...index.column().slots]).toEqual([2, 0, 1]);
    expect(cands(index, { range: { lt: 5 } })).toEqual([2]);
    index.remove(0);
    expect([...index.column().values]).toEqual([0, 6]);
    expect(cands(index, { match: { value: 5 } })).toEqual([]);
    add(index, 0, 7);
    expect(cands(index, { range: { gt: 6 } })).toEqual([0]);
    expect(index.lowerBound(7)).toBe(2);
  });

  it('remove forgets other-typed slots too; re-adding as an integer puts it in the column', () => {
    const index = build({ type: 'integer' }, [1, 'x']);
    index.remove(1);
    expect(cands(index, { range: { gt: 5 } })).toEqual([]);
    add(index, 1, 10);
    expect(cands(index, { range: { gt: 5 } })).toEqual([1]);
    expect(cands(index, { match: { value: 1 } })).toEqual([0]);
  });
});

describe('float index', () => {
  it('range over floats and integers, bounds exact', () => {
    const index = build({ type: 'float' }, [0.1, 0.2, 0.30000000000000004, -1e-9, 3, [0.3, 100]]);
    expect(cands(index, { range: { lte: 0.3 } })).toEqual([0, 1, 3, 5]);
    expect(cands(index, { range: { gt: -1e-9 } })).toEqual([0, 1, 2, 4, 5]);
    expect(cands(index, { range: { gte: 0.3, lt: 3 } })).toEqual([2, 5]);
    expect(index.points).toBe(6);
  });

  it('cannot narrow matches (a float index is no lookup index)', () => {
    const index = build({ type: 'float' }, [1, 2]);
    expect(cands(index, { match: { value: 1 } })).toBeNull();
    expect(cands(index, { match: { any: [1] } })).toBeNull();
  });

  it('strings and booleans are other-typed', () => {
    const index = build({ type: 'float' }, [1.5, 'x', false, null]);
    expect(cands(index, { range: { gt: 5 } })).toEqual([1, 2]);
  });
});

describe('datetime index', () => {
  const rows: (JsonValue | undefined)[] = [
    '2024-01-01T00:00:00Z',
    '2024-01-01T01:00:00+02:00', // 2023-12-31T23:00Z
    '2024-01-01',
    'garbage',
    5,
    ['2023-06-01 12:00:00', '2025-01-01T00:00:00.5Z'],
  ];

  it('range with datetime bounds compares instants, whatever the zone', () => {
    const index = build({ type: 'datetime' }, rows);
    expectCovers(index, { range: { gte: '2024-01-01T00:00:00Z' } }, [0, 2, 5], [1]);
    expectCovers(index, { range: { lt: '2024-01-01' } }, [1, 5], [0, 2]);
    expectCovers(index, { range: { gt: '2023-12-31T23:00:00Z', lte: '2024-01-01T03:00:00+03:00' } }, [0, 2], [1]);
    expectCovers(index, { range: { gt: '2025-01-01T00:00:00Z' } }, [5], [0, 1, 2]);
  });

  it('unparsable strings and numbers are other-typed', () => {
    const index = build({ type: 'datetime' }, rows);
    expect(index.points).toBe(4);
    // The evaluator compares a number with numeric bounds: slot 4 must be a candidate.
    expectCovers(index, { range: { gte: 0, lte: 10 } }, [4]);
    expectCovers(index, { range: { gt: '2030-01-01' } }, [3, 4], [0, 1, 2, 5]);
  });

  it('cannot narrow matches', () => {
    expect(cands(build({ type: 'datetime' }, rows), { match: { value: '2024-01-01' } })).toBeNull();
  });
});
