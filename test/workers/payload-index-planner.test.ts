// The candidate planner (planCandidates): how must, should, must_not, min_should, has_id and
// nested filters combine the indexes' candidate sets.

import { describe, expect, it } from 'vitest';
import { createFieldIndex, planCandidates, type FieldIndex } from '../../src/workers/index/payload-index.js';
import type { Condition, Filter } from '../../src/shared/filter.js';
import type { PointId } from '../../src/shared/types.js';

// ---- planner -----------------------------------------------------------------------------------

describe('planCandidates', () => {
  // slot:      0      1       2       3      4
  const a = ['red', 'red', 'blue', 'blue', 'green'];
  const b = ['x', 'y', 'x', 'y', 'x'];
  const ids: PointId[] = [10, 11, 12, 13, 14];
  const indexes = new Map<string, FieldIndex>();
  const ia = createFieldIndex({ type: 'keyword' });
  const ib = createFieldIndex({ type: 'keyword' });
  a.forEach((v, s) => ia.add(s, [v]));
  b.forEach((v, s) => ib.add(s, [v]));
  indexes.set('a', ia);
  indexes.set('b', ib);
  const slotsOfIds = (want: readonly PointId[]): Set<number> => new Set(ids.flatMap((id, s) => (want.includes(id) ? [s] : [])));

  const plan = (f: Filter): number[] | null => {
    const s = planCandidates(f, indexes, slotsOfIds);
    return s === null ? null : [...s].sort((x, y) => x - y);
  };
  const A = (v: string): Condition => ({ key: 'a', match: { value: v } });
  const B = (v: string): Condition => ({ key: 'b', match: { value: v } });
  const U: Condition = { key: 'unindexed', match: { value: 'x' } };

  it('an empty filter, or only unindexed conditions: null', () => {
    expect(plan({})).toBeNull();
    expect(plan({ must: [] })).toBeNull();
    expect(plan({ must: [U, { key: 'a', match: { except: ['red'] } }, { is_empty: { key: 'a' } }, { has_vector: 'v' }] })).toBeNull();
  });

  it('must: intersects the indexed conditions and ignores the others', () => {
    expect(plan({ must: [A('red')] })).toEqual([0, 1]);
    expect(plan({ must: [A('red'), B('x')] })).toEqual([0]);
    expect(plan({ must: [U, B('y'), { key: 'a', match: { any: ['red', 'blue'] } }] })).toEqual([1, 3]);
    expect(plan({ must: [A('red'), A('blue')] })).toEqual([]);
  });

  it('must and should may be a single condition rather than a list', () => {
    expect(plan({ must: A('blue') })).toEqual([2, 3]);
    expect(plan({ should: B('y') })).toEqual([1, 3]);
  });

  it('should: unites the conditions when every one is indexed', () => {
    expect(plan({ should: [A('red'), B('y')] })).toEqual([0, 1, 3]);
    expect(plan({ should: [A('green'), { has_id: [10] }] })).toEqual([0, 4]);
  });

  it('should with an unindexed condition cannot narrow (but must still does)', () => {
    expect(plan({ should: [A('red'), U] })).toBeNull();
    expect(plan({ must: [B('x')], should: [A('red'), U] })).toEqual([0, 2, 4]);
    expect(plan({ must: [B('x')], should: [A('red'), A('green')] })).toEqual([0, 4]);
  });

  it('must_not and min_should never narrow', () => {
    expect(plan({ must_not: [A('red')] })).toBeNull();
    expect(plan({ min_should: { conditions: [A('red'), B('x')], min_count: 2 } })).toBeNull();
    expect(plan({ must: [B('y')], must_not: [A('red')] })).toEqual([1, 3]);
  });

  it('has_id: the slots of the ids, intersected with the rest', () => {
    expect(plan({ must: [{ has_id: [11, 14, 99] }] })).toEqual([1, 4]);
    expect(plan({ must: [{ has_id: [11, 14] }, B('x')] })).toEqual([4]);
    expect(plan({ must: [{ has_id: [] }] })).toEqual([]);
  });

  it('nested filters as conditions (plain or under `filter`) are planned recursively', () => {
    expect(plan({ must: [{ should: [A('red'), A('green')] }] })).toEqual([0, 1, 4]);
    expect(plan({ must: [{ filter: { must: [A('blue'), B('y')] } }] })).toEqual([3]);
    expect(plan({ should: [{ must: [A('red'), B('y')] }, { filter: { must: [A('green')] } }] })).toEqual([1, 4]);
    expect(plan({ must: [{ must_not: [A('red')] }] })).toBeNull();
    expect(plan({ should: [{ must_not: [A('red')] }, A('green')] })).toBeNull();
  });

  it('nested (array of objects) conditions are not narrowed by top-level indexes', () => {
    expect(plan({ must: [{ nested: { key: 'a', filter: { must: [A('red')] } } }] })).toBeNull();
  });

  it('does not change the sets slotsOfIds returns', () => {
    const fixed = new Set([0, 1, 2]);
    const s = planCandidates({ must: [{ has_id: [10] }, A('red')], should: [{ has_id: [10] }, B('y')] }, indexes, () => fixed);
    expect([...s!].sort()).toEqual([0, 1]);
    expect([...fixed]).toEqual([0, 1, 2]);
  });
});
