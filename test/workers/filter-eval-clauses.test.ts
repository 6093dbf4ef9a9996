// The filter evaluator's boolean clauses: must, should, must_not, min_should and nested Filters.

import { describe, expect, it } from 'vitest';
import type { Condition, Filter } from '../../src/shared/filter.js';
import { select, type Point } from '../helpers/filter-eval.js';

describe('compileFilter: clauses', () => {
  const points: Point[] = [
    { payload: { city: 'London', color: 'green' } },
    { payload: { city: 'London', color: 'red' } },
    { payload: { city: 'London', color: 'blue' } },
    { payload: { city: 'Berlin', color: 'red' } },
    { payload: { city: 'Moscow', color: 'green' } },
    { payload: { city: 'Moscow', color: 'blue' } },
    { payload: null },
  ];
  const london: Condition = { key: 'city', match: { value: 'London' } };
  const red: Condition = { key: 'color', match: { value: 'red' } };
  const green: Condition = { key: 'color', match: { value: 'green' } };
  const moscow: Condition = { key: 'city', match: { value: 'Moscow' } };

  it('an empty filter accepts everything', () => {
    expect(select({}, points)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('must is AND', () => {
    expect(select({ must: [london, red] }, points)).toEqual([1]);
  });

  it('must may be a single condition rather than a list', () => {
    expect(select({ must: london }, points)).toEqual([0, 1, 2]);
  });

  it('should is OR', () => {
    expect(select({ should: [london, red] }, points)).toEqual([0, 1, 2, 3]);
  });

  it('must_not is NOR', () => {
    expect(select({ must_not: [london, red] }, points)).toEqual([4, 5, 6]);
  });

  it('clauses combine with AND', () => {
    expect(select({ must: [london], must_not: [red] }, points)).toEqual([0, 2]);
    expect(select({ must: [london], should: [red, green] }, points)).toEqual([0, 1]);
    expect(select({ should: [red, green], must_not: [moscow] }, points)).toEqual([0, 1, 3]);
  });

  it('a Filter nested inside must_not is NOT(AND)', () => {
    expect(select({ must_not: [{ must: [london, red] }] }, points)).toEqual([0, 2, 3, 4, 5, 6]);
  });

  it('a Filter nested inside must (OR inside AND)', () => {
    expect(select({ must: [{ should: [red, green] }, { must_not: [london] }] }, points)).toEqual([3, 4]);
  });

  it('the {filter: ...} condition form behaves like a nested Filter', () => {
    expect(select({ must: [{ filter: { should: [red, green] } }, london] }, points)).toEqual([0, 1]);
  });

  it('min_should requires at least min_count of its conditions', () => {
    const conds = [london, red, green];
    expect(select({ min_should: { conditions: conds, min_count: 2 } }, points)).toEqual([0, 1]);
    expect(select({ min_should: { conditions: conds, min_count: 1 } }, points)).toEqual([0, 1, 2, 3, 4]);
    expect(select({ min_should: { conditions: conds, min_count: 0 } }, points)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(select({ min_should: { conditions: conds, min_count: 4 } }, points)).toEqual([]);
  });

  it('min_should combines with must', () => {
    expect(
      select({ must: [{ key: 'color', match: { except: ['blue'] } }], min_should: { conditions: [london, moscow, red], min_count: 1 } }, points),
    ).toEqual([0, 1, 3, 4]);
  });

  it('deeply nested boolean logic', () => {
    // (London AND NOT red) OR (Moscow AND green)
    const f: Filter = {
      should: [{ must: [london], must_not: [red] }, { must: [moscow, green] }],
    };
    expect(select(f, points)).toEqual([0, 2, 4]);
  });
});
