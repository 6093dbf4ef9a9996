// The geo payload index: bounding box, radius and polygon candidates across cell edges, the
// antimeridian and the poles, and points the filter evaluator matches outside the cells.

import { describe, expect, it } from 'vitest';
import { compileFilter, type FilterView } from '../../src/workers/shard/filter-eval.js';
import type { FieldCondition } from '../../src/shared/filter.js';
import type { Payload } from '../../src/shared/types.js';
import { add, box, build, cands, expectCovers, polygon, radius } from '../helpers/payload-index.js';

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
