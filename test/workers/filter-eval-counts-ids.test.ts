// The filter evaluator's counts and emptiness conditions (values_count, is_empty, is_null), and
// has_id and has_vector.

import { describe, expect, it } from 'vitest';
import type { Condition } from '../../src/shared/filter.js';
import { matches, select, table, type Point, type Row } from '../helpers/filter-eval.js';

describe('compileFilter: counts and emptiness', () => {
  table('values_count gte 2', { key: 'tags', values_count: { gte: 2 } }, [
    [{ tags: ['a', 'b'] }, true],
    [{ tags: ['a', 'b', 'c'] }, true],
    [{ tags: ['a'] }, false],
    [{ tags: 'a' }, false],
    [{ tags: [] }, false],
    [{}, false],
  ]);

  table('values_count lt 2', { key: 'tags', values_count: { lt: 2 } }, [
    [{ tags: ['a'] }, true],
    [{ tags: [] }, true],
    [{ tags: 'a' }, true],
    [{ tags: ['a', 'b'] }, false],
  ]);

  table('values_count gt 1 lte 3', { key: 'tags', values_count: { gt: 1, lte: 3 } }, [
    [{ tags: [1] }, false],
    [{ tags: [1, 2] }, true],
    [{ tags: [1, 2, 3] }, true],
    [{ tags: [1, 2, 3, 4] }, false],
  ]);

  const emptyRows: Row[] = [
    [{}, true], // missing
    [null, true], // no payload at all
    [{ tags: [] }, true],
    [{ tags: null }, true],
    [{ tags: [null] }, false], // as Qdrant: an array holding null is not empty
    [{ tags: ['a'] }, false],
    [{ tags: '' }, false],
    [{ tags: 0 }, false],
    [{ tags: false }, false],
    [{ tags: {} }, false],
  ];
  table('is_empty condition', { is_empty: { key: 'tags' } }, emptyRows);
  table('field condition is_empty: true', { key: 'tags', is_empty: true }, emptyRows);
  table(
    'field condition is_empty: false',
    { key: 'tags', is_empty: false },
    emptyRows.map(([p, e]) => [p, !e]),
  );

  table('is_empty on a path through an array of objects', { is_empty: { key: 'a[].b' } }, [
    [{ a: [{ c: 1 }, { c: 2 }] }, true],
    [{ a: [{ c: 1 }, { b: 2 }] }, false],
    [{ a: [] }, true],
  ]);

  table('is_empty on a.b where a is an array: nothing there', { is_empty: { key: 'a.b' } }, [
    [{ a: [{ b: 2 }] }, true],
    [{ a: { b: 2 } }, false],
  ]);

  const nullRows: Row[] = [
    [{ x: null }, true],
    [{}, false], // missing is not null
    [null, false],
    [{ x: [] }, false],
    [{ x: [null] }, false], // as Qdrant
    [{ x: 0 }, false],
    [{ x: '' }, false],
  ];
  table('is_null condition', { is_null: { key: 'x' } }, nullRows);
  table('field condition is_null: true', { key: 'x', is_null: true }, nullRows);
  table(
    'field condition is_null: false',
    { key: 'x', is_null: false },
    nullRows.map(([p, e]) => [p, !e]),
  );

  it('a field condition with several checks needs all of them', () => {
    const c: Condition = { key: 'n', range: { gte: 0 }, match: { except: [5] } };
    expect(matches(c, { n: 3 })).toBe(true);
    expect(matches(c, { n: 5 })).toBe(false);
    expect(matches(c, { n: -1 })).toBe(false);
  });
});

describe('compileFilter: ids and vectors', () => {
  const U = '550e8400-e29b-41d4-a716-446655440000';
  const points: Point[] = [
    { id: 1, payload: {}, vectors: ['image'] },
    { id: 2, payload: {}, vectors: ['text', 'image'] },
    { id: U, payload: null, vectors: [] },
    { id: 10, payload: { diet: [{ food: 'x' }] }, vectors: ['text'] },
  ];

  it('has_id matches integer and UUID ids', () => {
    expect(select({ must: [{ has_id: [1, U] }] }, points)).toEqual([0, 2]);
    expect(select({ must: [{ has_id: [] }] }, points)).toEqual([]);
    expect(select({ must_not: [{ has_id: [2, 10] }] }, points)).toEqual([0, 2]);
    // 1 and '1' are different ids.
    expect(select({ must: [{ has_id: ['1'] }] }, points)).toEqual([]);
  });

  it('has_vector asks the view about the named vector', () => {
    expect(select({ must: [{ has_vector: 'image' }] }, points)).toEqual([0, 1]);
    expect(select({ must: [{ has_vector: 'text' }] }, points)).toEqual([1, 3]);
    expect(select({ must: [{ has_vector: 'audio' }] }, points)).toEqual([]);
    expect(select({ must_not: [{ has_vector: 'image' }] }, points)).toEqual([2, 3]);
  });

  it('has_id inside nested never matches (Qdrant does not support it)', () => {
    expect(select({ must: [{ nested: { key: 'diet', filter: { must: [{ has_id: [10] }] } } }] }, points)).toEqual([]);
  });
});
