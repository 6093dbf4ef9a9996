import { describe, expect, it } from 'vitest';
import { createFieldIndex, planCandidates, RangeIndex, type FieldIndex } from '../../src/workers/index/payload-index.js';
import { compileFilter, fieldValues, parsePath, type FilterView, type PathPart } from '../../src/workers/shard/filter-eval.js';
import type { Condition, FieldCondition, Filter, GeoPoint, RangeCond } from '../../src/shared/filter.js';
import type { FieldIndexSchema, JsonValue, Payload, PointId, TextIndexParams } from '../../src/shared/types.js';
import { rng } from '../helpers/random.js';

// ---- helpers --------------------------------------------------------------------------------

type Cond = Omit<FieldCondition, 'key'>;

/** An index on key 'k' over rows of values at 'k' (slot = row; undefined: the key is missing). */
function build(schema: FieldIndexSchema, rows: (JsonValue | undefined)[]): FieldIndex {
  const index = createFieldIndex(schema);
  rows.forEach((v, slot) => add(index, slot, v));
  return index;
}

function add(index: FieldIndex, slot: number, v: JsonValue | undefined): void {
  const payload: Payload = v === undefined ? {} : { k: v };
  index.add(slot, fieldValues(payload, parsePath('k')));
}

function cands(index: FieldIndex, cond: Cond): number[] | null {
  const s = index.candidates({ key: 'k', ...cond });
  return s === null ? null : [...s].sort((a, b) => a - b);
}

/** Asserts that the candidates are a set holding every one of `must` and none of `mustNot`. */
function expectCovers(index: FieldIndex, cond: Cond, must: number[], mustNot: number[] = []): void {
  const c = cands(index, cond);
  expect(c).not.toBeNull();
  for (const s of must) expect(c, `slot ${s} must be a candidate`).toContain(s);
  for (const s of mustNot) expect(c, `slot ${s} must not be a candidate`).not.toContain(s);
}

const text = (over: Partial<TextIndexParams> = {}): FieldIndexSchema => ({
  type: 'text',
  text: { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true, ...over },
});

const box = (west: number, north: number, east: number, south: number): Cond => ({
  geo_bounding_box: { top_left: { lon: west, lat: north }, bottom_right: { lon: east, lat: south } },
});
const radius = (lon: number, lat: number, r: number): Cond => ({ geo_radius: { center: { lon, lat }, radius: r } });
const polygon = (...pts: [number, number][]): Cond => ({
  geo_polygon: { exterior: { points: [...pts, pts[0]!].map(([lon, lat]) => ({ lon, lat })) } },
});

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

// ---- geo ---------------------------------------------------------------------------------------

describe('geo index', () => {
  const p = (lon: number, lat: number): Payload => ({ lon, lat });

  it('bounding box: points inside, not points cells away', () => {
    const index = build({ type: 'geo' }, [p(10.5, 10.5), p(12.7, 10.2), p(-10, -10), [p(-10, -10), p(10.9, 10.1)], null, p(11, 10)]);
    expectCovers(index, box(10, 11, 11, 10), [0, 3, 5], [1, 2, 4]);
    expect(index.points).toBe(5);
  });

  it('bounding box: edges are inside', () => {
    const index = build({ type: 'geo' }, [p(-5, 5), p(5, -5), p(5, 5), p(-5, -5)]);
    expectCovers(index, box(-5, 5, 5, -5), [0, 1, 2, 3]);
  });

  it('bounding box: a point in the upper half of a cell, just inside the box', () => {
    const index = build({ type: 'geo' }, [p(10.7, 10.7), p(-0.3, -0.3)]);
    expectCovers(index, box(10.6, 10.8, 10.8, 10.6), [0], [1]);
    expectCovers(index, box(-0.4, -0.2, -0.2, -0.4), [1], [0]);
  });

  it('bounding box across the antimeridian', () => {
    const index = build({ type: 'geo' }, [p(179.5, 0), p(-179.5, 0), p(180, 0.5), p(-180, -0.5), p(0, 0), p(170, 0), p(-170, 0)]);
    expectCovers(index, box(179, 1, -179, -1), [0, 1, 2, 3], [4, 5, 6]);
  });

  it('bounding box at the poles', () => {
    const index = build({ type: 'geo' }, [p(0, 90), p(123, -90), p(0, 0)]);
    expectCovers(index, box(-180, 90, 180, 89), [0], [1, 2]);
    expectCovers(index, box(-180, -89, 180, -90), [1], [0, 2]);
  });

  it('radius: points within, not points far away', () => {
    const index = build({ type: 'geo' }, [p(0.3, 0.3), p(2, 2), p(-0.2, 0.1), p(0, -3)]);
    expectCovers(index, radius(0, 0, 50_000), [0, 2], [1, 3]);
    expectCovers(index, radius(0, 0, 0), [], [1, 3]);
  });

  it('radius across the antimeridian', () => {
    const index = build({ type: 'geo' }, [p(-179.9, 0), p(179.8, 0.1), p(180, 0), p(-180, 0), p(0, 0)]);
    expectCovers(index, radius(179.9, 0, 50_000), [0, 1, 2, 3], [4]);
    expectCovers(index, radius(-179.95, 0, 50_000), [0, 1, 2, 3], [4]);
  });

  it('radius at high latitudes reaches far in longitude', () => {
    // At 80 degrees north, 300 km are about 15 degrees of longitude.
    const index = build({ type: 'geo' }, [p(14, 80), p(-14, 80), p(40, 80)]);
    expectCovers(index, radius(0, 80, 300_000), [0, 1], [2]);
  });

  it('radius near a pole covers points over the pole (or does not narrow)', () => {
    // 88N,0E to 89N,180E is 3 degrees across the pole: about 333 km.
    const index = build({ type: 'geo' }, [p(180, 89), p(-90, 89.5), p(0, 0)]);
    const c = cands(index, radius(0, 88, 400_000));
    if (c !== null) expect(c).toEqual(expect.arrayContaining([0, 1]));
  });

  it('a radius around the whole earth covers every point (or does not narrow)', () => {
    const index = build({ type: 'geo' }, [p(180, 0), p(0, 0), p(-90, -45)]);
    const c = cands(index, radius(0, 0, 30_000_000));
    if (c !== null) expect(c).toEqual([0, 1, 2]);
  });

  it('polygon: points inside its bounds, not points far outside', () => {
    const index = build({ type: 'geo' }, [p(1, 1), p(5, 5), p(1.9, 0.1), p(-1, 1)]);
    expectCovers(index, polygon([0, 0], [0, 2], [2, 2], [2, 0]), [0, 2], [1, 3]);
    expectCovers(index, polygon([0, 0], [2, 0], [0, 2]), [0], [1, 3]);
  });

  it('polygon: a point near its lowest and its westmost vertex', () => {
    // The bottom edge lies at 0.6N, in the upper half of cell 0; the point at 0.8N is inside.
    const index = build({ type: 'geo' }, [p(1, 0.8), p(0.75, 1), p(1, 5)]);
    expectCovers(index, polygon([0, 0.6], [2, 0.6], [1, 3]), [0], [2]);
    expectCovers(index, polygon([0.7, 1], [3, 0], [3, 2]), [1], [2]);
  });

  it('non-point values are other-typed; malformed points too', () => {
    const index = build({ type: 'geo' }, ['10,10', [10, 10], { lon: '10', lat: 10 }, { lat: 10 }, p(50, 50), null]);
    expect(index.points).toBe(1);
    expectCovers(index, box(9, 11, 11, 9), [0, 1, 2, 3], [4, 5]);
  });

  it('a point with extra keys is still a point', () => {
    const index = build({ type: 'geo' }, [{ lon: 10.5, lat: 10.5, name: 'x' }]);
    expect(index.points).toBe(1);
    expect(cands(index, box(-1, 1, 1, -1))).toEqual([]);
    expect(cands(index, box(10, 11, 11, 10))).toEqual([0]);
  });

  it('remove and re-add move a point', () => {
    const index = build({ type: 'geo' }, [p(10.5, 10.5), [p(10.5, 10.5), p(40, 40)]]);
    index.remove(0);
    add(index, 0, p(-60, -60));
    index.remove(1);
    expect(cands(index, box(10, 11, 11, 10))).toEqual([]);
    expect(cands(index, box(-61, -59, -59, -61))).toEqual([0]);
    expect(cands(index, box(39, 41, 41, 39))).toEqual([]);
    expect(index.points).toBe(1);
  });

  it('cannot narrow match or range conditions', () => {
    const index = build({ type: 'geo' }, [p(1, 1)]);
    expect(cands(index, { match: { value: 'x' } })).toBeNull();
    expect(cands(index, { range: { gt: 0 } })).toBeNull();
  });

  // BUG: the evaluator takes any {lon, lat} numbers as a point, also outside [-180, 180] (payloads
  // are not validated), and compares wrapped boxes by `lon >= west || lon <= east` and radii by
  // haversine, which is periodic in longitude; the index files such a point in a cell no query
  // collects. Candidates then miss a point the filter matches. (Either the index keeps
  // out-of-range points aside with the other-typed ones, or the evaluator rejects them as Qdrant
  // does; either way the superset invariant below holds.)
  it('a point with a longitude beyond 180 that a wrapped box matches is a candidate', () => {
    const payload: Payload = { k: { lon: 190, lat: 0 } };
    const cond: FieldCondition = { key: 'k', ...box(170, 10, -170, -10) };
    const matched = compileFilter({ must: [cond] }, soloView(payload))(0);
    const c = cands(build({ type: 'geo' }, [payload.k!]), cond);
    expect(matched && c !== null && !c.includes(0), `evaluator: ${matched}, candidates: ${JSON.stringify(c)}`).toBe(false);
  });

  it('a point with a longitude below -180 that a radius matches is a candidate', () => {
    const payload: Payload = { k: { lon: -180.5, lat: 0 } }; // the same place as 179.5E
    const cond: FieldCondition = { key: 'k', ...radius(179.5, 0, 100_000) };
    const matched = compileFilter({ must: [cond] }, soloView(payload))(0);
    const c = cands(build({ type: 'geo' }, [payload.k!]), cond);
    expect(matched && c !== null && !c.includes(0), `evaluator: ${matched}, candidates: ${JSON.stringify(c)}`).toBe(false);
  });
});

function soloView(payload: Payload): FilterView {
  return { payload: () => payload, id: () => 1, hasVector: () => false, textIndex: () => undefined };
}

// ---- text --------------------------------------------------------------------------------------

describe('text index', () => {
  const rows: (JsonValue | undefined)[] = ['Red apple', 'red pear', 'green apple', 5, null, ['apple', 'tart red'], 'A red, red apple!'];

  it('text: slots holding every query token (word tokenizer, lowercase by default)', () => {
    const index = build({ type: 'text' }, rows);
    expectCovers(index, { match: { text: 'apple RED' } }, [0, 6], [1, 2, 4]);
    expectCovers(index, { match: { text: 'pear' } }, [1], [0, 2, 4, 5, 6]);
    expectCovers(index, { match: { text: 'banana' } }, [], [0, 1, 2, 4, 5, 6]);
    expectCovers(index, { match: { text: 'app' } }, [], [0, 2, 5, 6]);
  });

  it('phrase: a superset of the slots holding the phrase', () => {
    const index = build(text(), rows);
    expectCovers(index, { match: { phrase: 'red apple' } }, [0, 6], [1, 2, 4]);
  });

  it('other-typed values are candidates', () => {
    const index = build(text(), rows);
    expectCovers(index, { match: { text: 'red' } }, [3]);
    expect(index.points).toBe(5);
  });

  it('a query without tokens matches nothing (as Qdrant): only the other-typed slots are candidates', () => {
    const index = build(text(), ['red apple', 7]);
    expect(cands(index, { match: { text: '' } })).toEqual([1]);
    expect(cands(index, { match: { phrase: ' ,! ' } })).toEqual([1]);
    expect(cands(index, { match: { text_any: '' } })).toEqual([1]);
  });

  it('text_any: the union of the query tokens\' slots', () => {
    const index = build(text(), ['red apple', 'green pear', 'blue sky']);
    expect(cands(index, { match: { text_any: 'pear RED unknown' } })).toEqual([0, 1]);
    expect(cands(index, { match: { text_any: 'unknown' } })).toEqual([]);
  });

  it('cannot narrow exact matches or ranges', () => {
    const index = build(text(), rows);
    expect(cands(index, { match: { value: 'red pear' } })).toBeNull();
    expect(cands(index, { match: { any: ['red'] } })).toBeNull();
    expect(cands(index, { range: { gt: 1 } })).toBeNull();
  });

  it('prefix tokenizer: a query token finds the words it begins', () => {
    const index = build(text({ tokenizer: 'prefix' }), ['apple pie', 'banana', 'applesauce', 'pineapple']);
    expectCovers(index, { match: { text: 'app' } }, [0, 2], [1, 3]);
    expectCovers(index, { match: { text: 'apple p' } }, [0], [1, 3]);
  });

  it('whitespace tokenizer keeps punctuation in terms', () => {
    const index = build(text({ tokenizer: 'whitespace' }), ['hello, world', 'hello world']);
    expectCovers(index, { match: { text: 'hello,' } }, [0], [1]);
  });

  it('lowercase: false keeps case apart', () => {
    const index = build(text({ lowercase: false }), ['Apple', 'apple']);
    expectCovers(index, { match: { text: 'Apple' } }, [0], [1]);
  });

  it('min_token_len: short query tokens are ignored, as in the documents', () => {
    const index = build(text({ min_token_len: 3 }), ['a red apple', 'a green pear']);
    expectCovers(index, { match: { text: 'a red' } }, [0], [1]);
    expect(cands(index, { match: { text: 'a' } })).toEqual([]);
  });

  it('remove and re-add replace the terms of a slot', () => {
    const index = build(text(), ['red apple', 7]);
    index.remove(0);
    add(index, 0, 'green pear');
    index.remove(1);
    add(index, 1, 'red');
    expect(cands(index, { match: { text: 'apple' } })).toEqual([]);
    expect(cands(index, { match: { text: 'pear' } })).toEqual([0]);
    expect(cands(index, { match: { text: 'red' } })).toEqual([1]);
  });
});

describe('every index returns fresh candidate sets', () => {
  const cases: [string, FieldIndexSchema, (JsonValue | undefined)[], Cond][] = [
    ['keyword', { type: 'keyword' }, ['red', 5, 'blue'], { match: { value: 'red' } }],
    ['integer', { type: 'integer' }, [1, 'x', 2], { match: { value: 1 } }],
    ['float', { type: 'float' }, [1, 'x', 2], { range: { lt: 1.5 } }],
    ['geo', { type: 'geo' }, [{ lon: 0.5, lat: 0.5 }, 'x', { lon: 9, lat: 9 }], box(0, 1, 1, 0)],
    ['text', text(), ['red apple', 5, 'green pear'], { match: { text: 'red' } }],
    ['text (prefix)', text({ tokenizer: 'prefix' }), ['red apple', 5, 'green pear'], { match: { text: 'app' } }],
  ];

  it.each(cases.map(([name, schema, rows, cond]) => ({ name, schema, rows, cond })))(
    '$name: changing a result, or removing an other-typed slot, leaves the next result right',
    ({ schema, rows, cond }) => {
      const index = build(schema, rows);
      expect(cands(index, cond)).toEqual([0, 1]);
      const got = index.candidates({ key: 'k', ...cond })!;
      got.add(2);
      got.add(77);
      expect(cands(index, cond)).toEqual([0, 1]);
      // Slot 1 (other-typed) joined the result sets above: it must not have joined the index.
      index.remove(1);
      expect(cands(index, cond)).toEqual([0]);
      index.remove(0);
      expect(cands(index, cond)).toEqual([]);
    },
  );
});

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

// ---- property: candidates cover the evaluator ---------------------------------------------------

const WORDS = ['red', 'Red', 'apple', 'red apple', 'Red-Apple pie', 'ÄPFEL birne', 'apples', 'pie', '', '  ', 'x', '3', 'true'];
const UUIDS = ['550e8400-e29b-41d4-a716-446655440000', '550E8400-E29B-41D4-A716-446655440000'];
const DATES = ['2024-01-01', '2024-01-01T12:00:00Z', '2024-01-01T13:30:00+02:00', '2023-12-31 23:59:59.5', '2024-01-02T00:00:00-0100'];
const BAD_DATES = ['not a date', '2024-13-45'];
const TEXT_QUERIES = ['red', 'apple red', 'app', 'RED', 'pie', '', 'äpfel', 'x', '!!!', 'red-apple', 'apple pie', 'birne', 'ap', 're', 'appl pi', 'bir'];

type R = () => number;
const int = (r: R, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

function geoPoint(r: R): GeoPoint {
  switch (int(r, 0, 6)) {
    case 0:
      return { lon: r() * 360 - 180, lat: r() * 180 - 90 };
    case 6: // high latitudes, where a degree of longitude is short
      return { lon: r() * 10 - 5, lat: (r() < 0.5 ? -1 : 1) * (74 + r() * 6) };
    case 1: // near the antimeridian
      return { lon: (r() < 0.5 ? -1 : 1) * (180 - r() * 2), lat: r() * 6 - 3 };
    case 2: // on cell corners and the edges of the world
      return { lon: pick(r, [-180, -2, -1, 0, 1, 2, 10, 180]), lat: pick(r, [-90, -1, 0, 1, 10, 90]) };
    case 3: // near a pole
      return { lon: r() * 360 - 180, lat: (r() < 0.5 ? -1 : 1) * (87 + r() * 3) };
    default: // a cluster most queries aim at
      return { lon: 10 + r() * 6 - 3, lat: 10 + r() * 6 - 3 };
  }
}

function scalar(r: R): JsonValue {
  switch (int(r, 0, 9)) {
    case 0:
      return null;
    case 1:
    case 2:
      return pick(r, WORDS);
    case 3:
      return pick(r, [...UUIDS, ...DATES, ...BAD_DATES]);
    case 4:
      return pick(r, [int(r, -4, 4), -0, 1e15]);
    case 5:
      return int(r, -4, 4) + pick(r, [0.5, 0.25, 0.999, 1e-9]);
    case 6:
      return r() < 0.5;
    default: {
      const g: Payload = { ...geoPoint(r) };
      if (r() < 0.2) g.k = pick(r, WORDS); // a point that also has a 'k' key
      return g;
    }
  }
}

function value(r: R): JsonValue {
  const x = r();
  if (x < 0.65) return scalar(r);
  if (x < 0.9) return Array.from({ length: int(r, 0, 3) }, () => scalar(r));
  if (x < 0.95) return [[scalar(r), scalar(r)]];
  return { k: scalar(r), x: scalar(r) };
}

function randomPayload(r: R): Payload | null {
  if (r() < 0.05) return null;
  const p: Payload = {};
  for (const key of ['a', 'b', 'c']) if (r() < 0.85) p[key] = value(r);
  const o = r();
  if (o < 0.3) p.o = { k: value(r) };
  else if (o < 0.45) p.o = { ...geoPoint(r), k: value(r) };
  else if (o < 0.6) p.o = Array.from({ length: int(r, 0, 3) }, () => ({ k: value(r) }));
  else if (o < 0.7) p.o = value(r);
  if (r() < 0.6) p.arr = Array.from({ length: int(r, 0, 3) }, () => (r() < 0.85 ? { v: value(r) } : scalar(r)));
  return p;
}

const INDEXED_KEYS = ['a', 'b', 'c', 'o', 'o.k', 'arr[].v'];
const FILTER_KEYS = [...INDEXED_KEYS, 'arr', 'missing'];

function rangeCond(r: R): RangeCond {
  const out: RangeCond = {};
  const dates = r() < 0.25;
  for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
    if (r() < 0.4) out[k] = dates ? pick(r, DATES) : pick(r, [int(r, -5, 5), int(r, -5, 5) + 0.5, r() * 10 - 5, 1e15]);
  }
  return out;
}

function geoCond(r: R): Cond {
  const c = r() < 0.5 ? { lon: 10 + r() * 6 - 3, lat: 10 + r() * 6 - 3 } : geoPoint(r);
  const kind = int(r, 0, 2);
  if (kind === 0) {
    const w = clamp(c.lon - r() * 5, -180, 180);
    const e = r() < 0.2 ? clamp(c.lon - 10 - r() * 40, -180, 180) : clamp(c.lon + r() * 5, -180, 180); // may wrap
    const n = clamp(c.lat + r() * 5, -90, 90);
    const s = r() < 0.05 ? clamp(c.lat + 10, -90, 90) : clamp(c.lat - r() * 5, -90, 90); // may be crossed
    return box(w, n, e, s);
  }
  if (kind === 1) return radius(c.lon, c.lat, pick(r, [0, 1_000, 50_000, 150_000, 400_000, 1_500_000, 6_000_000, 25_000_000]));
  const n = int(r, 3, 6);
  const spread = pick(r, [0.5, 2, 8]);
  const pts: [number, number][] = Array.from({ length: n }, () => [
    clamp(c.lon + (r() * 2 - 1) * spread, -180, 180),
    clamp(c.lat + (r() * 2 - 1) * spread, -90, 90),
  ]);
  return polygon(...pts);
}

function matchValue(r: R): string | number | boolean {
  const x = r();
  if (x < 0.5) return pick(r, [...WORDS, ...UUIDS, ...DATES]);
  if (x < 0.85) return pick(r, [int(r, -4, 4), 1e15]);
  return r() < 0.5;
}

function anyValue(r: R): string | number {
  return r() < 0.6 ? pick(r, [...WORDS, ...UUIDS]) : int(r, -4, 4);
}

function fieldCond(r: R): FieldCondition {
  const key = pick(r, FILTER_KEYS);
  switch (int(r, 0, 11)) {
    case 0:
    case 1:
      return { key, match: { value: matchValue(r) } };
    case 2:
      return { key, match: { any: Array.from({ length: int(r, 0, 3) }, () => anyValue(r)) } };
    case 3:
      return { key, match: { except: Array.from({ length: int(r, 0, 2) }, () => anyValue(r)) } };
    case 4:
      return { key, match: { text: pick(r, TEXT_QUERIES) } };
    case 5:
      return { key, match: { phrase: pick(r, TEXT_QUERIES) } };
    case 6:
    case 7:
      return { key, range: rangeCond(r) };
    case 8:
    case 9:
      return { key, ...geoCond(r) };
    case 10:
      return { key, match: { value: matchValue(r) }, range: rangeCond(r) };
    default:
      return pick(r, [{ key, is_empty: r() < 0.5 }, { key, is_null: r() < 0.5 }, { key, values_count: { gte: int(r, 0, 2) } }]);
  }
}

function condition(r: R, ids: readonly PointId[], depth: number): Condition {
  const x = r();
  if (x < 0.72 || depth >= 2) return fieldCond(r);
  if (x < 0.8) return { has_id: Array.from({ length: int(r, 0, 4) }, () => pick(r, ids)) };
  if (x < 0.88) return randomFilter(r, ids, depth + 1);
  if (x < 0.93) return { filter: randomFilter(r, ids, depth + 1) };
  if (x < 0.97) return { nested: { key: 'arr', filter: { must: [{ ...fieldCond(r), key: 'v' }] } } };
  return pick(r, [{ is_empty: { key: pick(r, FILTER_KEYS) } }, { is_null: { key: pick(r, FILTER_KEYS) } }]);
}

function randomFilter(r: R, ids: readonly PointId[], depth = 0): Filter {
  const list = (max: number): Condition[] | Condition => {
    const xs = Array.from({ length: int(r, 0, max) }, () => condition(r, ids, depth));
    return xs.length === 1 && r() < 0.3 ? xs[0]! : xs;
  };
  const f: Filter = {};
  if (r() < 0.75) f.must = list(3);
  if (r() < 0.45) f.should = list(3);
  if (r() < 0.3) f.must_not = list(2);
  if (r() < 0.05) {
    const conditions = Array.from({ length: int(r, 1, 3) }, () => condition(r, ids, depth));
    f.min_should = { conditions, min_count: int(r, 1, conditions.length) };
  }
  return f;
}

const TEXT_PARAMS: TextIndexParams[] = [
  { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true },
  { tokenizer: 'whitespace', min_token_len: null, max_token_len: null, lowercase: true },
  { tokenizer: 'prefix', min_token_len: 2, max_token_len: null, lowercase: true },
  { tokenizer: 'multilingual', min_token_len: null, max_token_len: null, lowercase: false },
  { tokenizer: 'word', min_token_len: 2, max_token_len: 5, lowercase: true },
];

const SCHEMAS: FieldIndexSchema[] = [
  ...(['keyword', 'uuid', 'bool', 'integer', 'float', 'datetime', 'geo'] as const).map((type) => ({ type })),
  ...TEXT_PARAMS.map((t) => ({ type: 'text' as const, text: t })),
];

interface Config {
  name: string;
  schemas: Map<string, FieldIndexSchema>;
}

function configs(r: R): Config[] {
  const out: Config[] = SCHEMAS.map((s) => ({
    name: s.type === 'text' ? `text/${JSON.stringify(s.text)}` : s.type,
    schemas: new Map(INDEXED_KEYS.map((k) => [k, s])),
  }));
  for (let i = 0; i < 3; i++) {
    out.push({ name: `mixed ${i}`, schemas: new Map(INDEXED_KEYS.filter(() => r() < 0.8).map((k) => [k, pick(r, SCHEMAS)])) });
  }
  return out;
}

/** A shard's slots, payloads and, per config, the incrementally maintained indexes. */
class World {
  readonly payloads: (Payload | null)[] = [];
  readonly live = new Set<number>();
  readonly ids: PointId[] = [];
  readonly indexes: Map<string, FieldIndex>[];
  readonly paths = new Map<string, PathPart[]>(INDEXED_KEYS.map((k) => [k, parsePath(k)]));

  constructor(readonly configs: Config[]) {
    this.indexes = configs.map((c) => new Map([...c.schemas].map(([k, s]) => [k, createFieldIndex(s)])));
  }

  idOf(slot: number): PointId {
    return slot % 4 === 0 ? `00000000-0000-4000-8000-${String(slot).padStart(12, '0')}` : slot + 1;
  }

  /** Writes a slot as the shard does: every index forgets it, then learns its new payload. */
  put(slot: number, payload: Payload | null): void {
    this.ids[slot] = this.idOf(slot);
    this.live.add(slot);
    this.payloads[slot] = payload;
    for (const m of this.indexes) {
      for (const [key, index] of m) {
        index.remove(slot);
        if (payload) index.add(slot, fieldValues(payload, this.paths.get(key)!));
      }
    }
  }

  delete(slot: number): void {
    this.live.delete(slot);
    this.payloads[slot] = null;
    for (const m of this.indexes) for (const index of m.values()) index.remove(slot);
  }

  /** Indexes built from scratch over the live payloads, in slot order. */
  fresh(i: number): Map<string, FieldIndex> {
    const m = new Map<string, FieldIndex>();
    for (const [key, schema] of this.configs[i]!.schemas) {
      const index = createFieldIndex(schema);
      for (const slot of [...this.live].sort((x, y) => x - y)) {
        const p = this.payloads[slot];
        if (p) index.add(slot, fieldValues(p, this.paths.get(key)!));
      }
      m.set(key, index);
    }
    return m;
  }

  slotsOfIds = (want: readonly PointId[]): Set<number> => {
    const w = new Set(want);
    return new Set([...this.live].filter((s) => w.has(this.ids[s]!)));
  };

  view(i: number): FilterView {
    const schemas = this.configs[i]!.schemas;
    return {
      payload: (slot) => this.payloads[slot] ?? null,
      id: (slot) => this.ids[slot]!,
      hasVector: () => false,
      textIndex: (key) => {
        const s = schemas.get(key);
        return s?.type === 'text' ? s.text : undefined;
      },
    };
  }
}

interface Stats {
  narrowed: Map<string, number>;
}

/** Every filter, every config: candidates null or a superset of the matches, all live, as a fresh build's. */
function checkAll(world: World, filters: Filter[], stats: Stats, phase: string): string[] {
  const failures: string[] = [];
  const live = [...world.live].sort((x, y) => x - y);
  const matchCache = new Map<string, number[]>();
  world.configs.forEach((config, i) => {
    const indexes = world.indexes[i]!;
    const fresh = world.fresh(i);
    const view = world.view(i);
    const textSig = JSON.stringify([...config.schemas].filter(([, s]) => s.type === 'text'));
    filters.forEach((filter, f) => {
      const cand = planCandidates(filter, indexes, world.slotsOfIds);
      const rebuilt = planCandidates(filter, fresh, world.slotsOfIds);
      const where = `${phase}, ${config.name}, filter #${f} ${JSON.stringify(filter)}`;
      if ((cand === null) !== (rebuilt === null) || (cand && [...cand].sort().join() !== [...rebuilt!].sort().join())) {
        failures.push(`maintained != rebuilt: ${where}`);
      }
      if (cand === null) return;
      // Count the filters the indexes narrow (beyond what has_id alone gives).
      const byIdsOnly = planCandidates(filter, new Map(), world.slotsOfIds);
      if (cand.size < live.length && (byIdsOnly === null || cand.size < byIdsOnly.size)) {
        stats.narrowed.set(config.name, (stats.narrowed.get(config.name) ?? 0) + 1);
      }
      for (const s of cand) if (!world.live.has(s)) failures.push(`dead slot ${s} is a candidate: ${where}`);
      // The text indexes only change how text and phrase matches evaluate.
      const key = /"(text|phrase)":/.test(JSON.stringify(filter)) ? `${textSig}#${f}` : `#${f}`;
      let matches = matchCache.get(key);
      if (matches === undefined) {
        const pred = compileFilter(filter, view);
        matches = live.filter((s) => pred(s));
        matchCache.set(key, matches);
      }
      for (const s of matches) {
        if (!cand.has(s)) failures.push(`slot ${s} ${JSON.stringify(world.payloads[s])} matches but is no candidate: ${where}`);
      }
    });
  });
  return failures;
}

/** A random condition on 'k' of the kinds the schema's index can narrow. */
function condFor(r: R, schema: FieldIndexSchema): FieldCondition {
  const key = 'k';
  switch (schema.type) {
    case 'geo':
      return { key, ...geoCond(r) };
    case 'text':
      return { key, match: r() < 0.7 ? { text: pick(r, TEXT_QUERIES) } : { phrase: pick(r, TEXT_QUERIES) } };
    case 'integer':
    case 'float':
    case 'datetime':
      if (r() < 0.6) return { key, range: rangeCond(r) };
      return { key, match: r() < 0.6 ? { value: matchValue(r) } : { any: Array.from({ length: int(r, 0, 3) }, () => anyValue(r)) } };
    default:
      return { key, match: r() < 0.6 ? { value: matchValue(r) } : { any: Array.from({ length: int(r, 0, 3) }, () => anyValue(r)) } };
  }
}

describe('property: one index, one condition', () => {
  const label = (s: FieldIndexSchema): string =>
    s.type === 'text' ? `text ${s.text!.tokenizer} min ${s.text!.min_token_len} max ${s.text!.max_token_len} lowercase ${s.text!.lowercase}` : s.type;
  it.each(SCHEMAS.map((schema) => ({ name: label(schema), schema })))(
    '$name: candidates cover the matches, through removes and re-adds',
    ({ schema }) => {
      const r = rng(7 + SCHEMAS.indexOf(schema));
      const N = 200;
      // Mostly points for a geo index, so that queries find some.
      const gen = (): JsonValue | undefined =>
        r() < 0.05 ? undefined : schema.type === 'geo' && r() < 0.7 ? (r() < 0.8 ? { ...geoPoint(r) } : [{ ...geoPoint(r) }, { ...geoPoint(r) }]) : value(r);
      const values = Array.from({ length: N }, gen);
      const index = build(schema, values);
      const conds = Array.from({ length: 200 }, () => condFor(r, schema));
      const textParams = schema.type === 'text' ? schema.text : undefined;
      const view: FilterView = {
        payload: (slot) => (values[slot] === undefined ? {} : { k: values[slot]! }),
        id: (slot) => slot,
        hasVector: () => false,
        textIndex: () => textParams,
      };
      const failures: string[] = [];
      let narrowed = 0;
      const check = (phase: string): void => {
        for (const cond of conds) {
          const c = index.candidates(cond);
          if (c === null) continue;
          if (c.size < N) narrowed++;
          const pred = compileFilter({ must: [cond] }, view);
          for (let s = 0; s < N; s++) {
            if (!c.has(s) && pred(s)) failures.push(`${phase}: slot ${s} ${JSON.stringify(values[s])} matches ${JSON.stringify(cond)}`);
          }
        }
      };
      check('built');
      for (let s = 0; s < N; s++) {
        if (r() < 0.4) {
          index.remove(s);
          values[s] = gen();
          add(index, s, values[s]);
        }
      }
      check('rewritten');
      expect(failures.slice(0, 5)).toEqual([]);
      expect(narrowed).toBeGreaterThan(80);
    },
  );
});

describe('property: candidates are a superset of the filter matches', () => {
  it('over random mixed-type payloads and filters, for every index type, through removes and re-adds', () => {
    const r = rng(20240611);
    const world = new World(configs(r));
    const N = 200;
    for (let s = 0; s < N; s++) world.put(s, randomPayload(r));
    const allIds = [...Array.from({ length: N + 30 }, (_, s) => world.idOf(s)), 999_999];
    const filters = Array.from({ length: 220 }, () => randomFilter(r, allIds));
    const stats: Stats = { narrowed: new Map() };

    const failures = checkAll(world, filters, stats, 'initial');

    // Remove some slots, rewrite others (often with values of other types), re-add removed ones.
    const removed: number[] = [];
    for (let s = 0; s < N; s++) {
      const x = r();
      if (x < 0.25) {
        world.delete(s);
        removed.push(s);
      } else if (x < 0.5) {
        world.put(s, randomPayload(r));
      }
    }
    for (const s of removed) if (r() < 0.5) world.put(s, randomPayload(r));
    for (let s = N; s < N + 20; s++) world.put(s, randomPayload(r));
    failures.push(...checkAll(world, filters, stats, 'after removes and re-adds'));

    expect(failures.slice(0, 5)).toEqual([]);
    // Not vacuous: every config narrows a fair share of the filters.
    for (const config of world.configs) expect(stats.narrowed.get(config.name) ?? 0, config.name).toBeGreaterThan(10);
  });
});
