// The exact-value payload indexes (keyword, uuid, bool): which slots a match narrows to, how
// other-typed values and nulls are kept, and removal and re-adding.

import { describe, expect, it } from 'vitest';
import { createFieldIndex } from '../../src/workers/index/payload-index.js';
import type { FieldIndexSchema, JsonValue } from '../../src/shared/types.js';
import { add, box, build, cands, expectCovers } from '../helpers/payload-index.js';

// ---- exact-value indexes ----------------------------------------------------------------------

describe('keyword index', () => {
  const rows: (JsonValue | undefined)[] = ['red', 'blue', ['blue', 'red'], 'Red', null, undefined, [], 'reddish'];

  it('match value: exactly the slots holding the string, in arrays too', () => {
    expect(cands(build({ type: 'keyword' }, rows), { match: { value: 'red' } })).toEqual([0, 2]);
    expect(cands(build({ type: 'keyword' }, rows), { match: { value: 'Red' } })).toEqual([3]);
    expect(cands(build({ type: 'keyword' }, rows), { match: { value: 'green' } })).toEqual([]);
  });

  it('match any: the union of the values', () => {
    const index = build({ type: 'keyword' }, rows);
    expect(cands(index, { match: { any: ['red', 'blue'] } })).toEqual([0, 1, 2]);
    expect(cands(index, { match: { any: ['reddish', 'nope'] } })).toEqual([7]);
    expect(cands(index, { match: { any: [] } })).toEqual([]);
  });

  it('cannot narrow except, text, phrase, range or geo conditions', () => {
    const index = build({ type: 'keyword' }, rows);
    expect(cands(index, { match: { except: ['red'] } })).toBeNull();
    expect(cands(index, { match: { text: 'red' } })).toBeNull();
    expect(cands(index, { match: { phrase: 'red' } })).toBeNull();
    expect(cands(index, { range: { gt: 1 } })).toBeNull();
    expect(cands(index, box(0, 1, 1, 0))).toBeNull();
    expect(cands(index, { is_empty: true })).toBeNull();
  });

  it('slots holding values of other types are candidates of every match', () => {
    const index = build({ type: 'keyword' }, ['red', 3, true, { x: 'red' }, ['blue', 7], null, [null, 'blue'], 2.5]);
    expect(cands(index, { match: { value: 'red' } })).toEqual([0, 1, 2, 3, 4, 7]);
    expect(cands(index, { match: { value: 'green' } })).toEqual([1, 2, 3, 4, 7]);
    // The evaluator matches slot 1 (3 === 3) and slot 4 (7 in the array): they must be there.
    expectCovers(index, { match: { value: 3 } }, [1]);
    expectCovers(index, { match: { any: [7, 'nope'] } }, [4]);
    expectCovers(index, { match: { value: true } }, [2]);
  });

  it('a null is no value: a slot holding only nulls is no candidate', () => {
    const index = build({ type: 'keyword' }, [null, [null, null], 'x']);
    expect(cands(index, { match: { value: 'x' } })).toEqual([2]);
    expect(cands(index, { match: { value: 5 } })).toEqual([]);
  });

  it('points counts the slots holding at least one string', () => {
    expect(build({ type: 'keyword' }, rows).points).toBe(5);
    expect(build({ type: 'keyword' }, [1, null, undefined, [true]]).points).toBe(0);
  });

  it('remove forgets a slot, as a holder of strings and of other types', () => {
    const index = build({ type: 'keyword' }, ['red', 3, ['red', 'blue']]);
    index.remove(0);
    index.remove(1);
    expect(cands(index, { match: { value: 'red' } })).toEqual([2]);
    expect(cands(index, { match: { value: 3 } })).toEqual([]);
    expect(index.points).toBe(1);
    index.remove(2);
    expect(cands(index, { match: { any: ['red', 'blue'] } })).toEqual([]);
    expect(index.points).toBe(0);
  });

  it('removing a slot never added, or twice, is harmless', () => {
    const index = build({ type: 'keyword' }, ['red', 'red']);
    index.remove(7);
    index.remove(0);
    index.remove(0);
    expect(cands(index, { match: { value: 'red' } })).toEqual([1]);
    expect(index.points).toBe(1);
  });

  it('a re-added slot is found under its new values only', () => {
    const index = build({ type: 'keyword' }, ['red', 3, 'blue']);
    index.remove(0);
    add(index, 0, 'green');
    index.remove(1);
    add(index, 1, 'red');
    index.remove(2);
    add(index, 2, 4);
    expect(cands(index, { match: { value: 'green' } })).toEqual([0, 2]);
    expect(cands(index, { match: { value: 'red' } })).toEqual([1, 2]);
    expect(cands(index, { match: { value: 'blue' } })).toEqual([2]);
    index.remove(2);
    add(index, 2, 'blue');
    expect(cands(index, { match: { value: 'red' } })).toEqual([1]);
  });

  it('returns fresh sets: changing one does not change the index', () => {
    const index = build({ type: 'keyword' }, ['red', 5, 'blue']);
    index.candidates({ key: 'k', match: { value: 'red' } })!.clear();
    index.candidates({ key: 'k', match: { any: ['blue'] } })!.add(99);
    index.candidates({ key: 'k', match: { value: 'none' } })!.add(98);
    expect(cands(index, { match: { value: 'red' } })).toEqual([0, 1]);
    expect(cands(index, { match: { any: ['blue'] } })).toEqual([1, 2]);
    expect(cands(index, { match: { value: 'none' } })).toEqual([1]);
  });

  it('keeps the schema it was created with', () => {
    const schema: FieldIndexSchema = { type: 'keyword', params: { is_tenant: true } };
    expect(createFieldIndex(schema).schema).toEqual(schema);
  });
});

describe('uuid index', () => {
  it('matches the exact string, like a keyword index', () => {
    const u = '550e8400-e29b-41d4-a716-446655440000';
    const index = build({ type: 'uuid' }, [u, u.toUpperCase(), [u, 'x'], 'x']);
    expect(cands(index, { match: { value: u } })).toEqual([0, 2]);
    expect(cands(index, { match: { any: [u.toUpperCase()] } })).toEqual([1]);
  });
});

describe('bool index', () => {
  const rows: (JsonValue | undefined)[] = [true, false, [false, true], 'true', 1, null, [false]];

  it('match value true/false: the slots holding it (plus other-typed ones)', () => {
    const index = build({ type: 'bool' }, rows);
    expectCovers(index, { match: { value: true } }, [0, 2], [1, 5, 6]);
    expectCovers(index, { match: { value: false } }, [1, 2, 6], [0, 5]);
    expect(index.points).toBe(4);
  });

  it('keeps string and number slots for matches on strings and numbers', () => {
    const index = build({ type: 'bool' }, rows);
    expectCovers(index, { match: { value: 'true' } }, [3], [0, 1, 2, 6]);
    expectCovers(index, { match: { any: [1] } }, [4], [0, 1, 2, 6]);
  });
});
