// The filter evaluator's nested conditions (each object element of the array checked alone, as
// Qdrant does) and the paths that reach them: quoted keys, repeated indexes, [] of a non-array.

import { describe, expect, it } from 'vitest';
import type { Condition, Filter } from '../../src/shared/filter.js';
import type { TextIndexParams } from '../../src/shared/types.js';
import { matches, select, type Point } from '../helpers/filter-eval.js';

describe('compileFilter: nested', () => {
  const points: Point[] = [
    {
      payload: {
        dinosaur: 't-rex',
        diet: [
          { food: 'leaves', likes: false },
          { food: 'meat', likes: true },
        ],
      },
    },
    {
      payload: {
        dinosaur: 'diplodocus',
        diet: [
          { food: 'leaves', likes: true },
          { food: 'meat', likes: false },
        ],
      },
    },
    { payload: { dinosaur: 'unknown' } },
    { payload: { dinosaur: 'odd', diet: ['meat', 5, null] } },
  ];

  it('requires one array element to satisfy the whole inner filter (unlike flat array paths)', () => {
    const inner: Filter = {
      must: [
        { key: 'food', match: { value: 'meat' } },
        { key: 'likes', match: { value: false } },
      ],
    };
    expect(select({ must: [{ nested: { key: 'diet', filter: inner } }] }, points)).toEqual([1]);
    // The same conditions on flattened paths mix elements and match both dinosaurs.
    expect(
      select(
        {
          must: [
            { key: 'diet[].food', match: { value: 'meat' } },
            { key: 'diet[].likes', match: { value: false } },
          ],
        },
        points,
      ),
    ).toEqual([0, 1]);
  });

  it('nested inside must_not excludes points with a matching element', () => {
    const f: Filter = {
      must_not: [{ nested: { key: 'diet', filter: { must: [{ key: 'food', match: { value: 'meat' } }, { key: 'likes', match: { value: true } }] } } }],
    };
    expect(select(f, points)).toEqual([1, 2, 3]);
  });

  it('must_not inside nested is checked per element', () => {
    const f: Filter = { must: [{ nested: { key: 'diet', filter: { must_not: [{ key: 'likes', match: { value: true } }] } } }] };
    // Both dinosaurs have an element they do not like; non-object elements are skipped.
    expect(select(f, points)).toEqual([0, 1]);
  });

  it('nested on a deeper path, with a range inside', () => {
    const pts: Point[] = [
      { payload: { country: { cities: [{ name: 'Berlin', population: 3.7 }, { name: 'Munich', population: 1.5 }] } } },
      { payload: { country: { cities: [{ name: 'Tokyo', population: 9.3 }] } } },
    ];
    const f: Filter = {
      must: [
        {
          nested: {
            key: 'country.cities',
            filter: { must: [{ key: 'name', match: { value: 'Munich' } }, { key: 'population', range: { gte: 1 } }] },
          },
        },
      ],
    };
    expect(select(f, pts)).toEqual([0]);
    const g: Filter = {
      must: [{ nested: { key: 'country.cities[]', filter: { must: [{ key: 'population', range: { gt: 5 } }] } } }],
    };
    expect(select(g, pts)).toEqual([1]);
  });
});

describe('compileFilter: nested, as Qdrant (each object element of the array checked alone)', () => {
  const points: Point[] = [
    { payload: { d: [{ f: 'meat', l: true }, { f: 'leaves', l: false }] } }, // 0
    { payload: { d: [{ f: 'meat', l: false }] } }, // 1
    { payload: { d: [{ f: 'meat', l: true }] } }, // 2
    { payload: { d: { f: 'meat', l: false } } }, // 3: an object, not an array
    { payload: { d: [] } }, // 4
    { payload: {} }, // 5
    { payload: { d: [{ f: 'meat' }, { f: 'fish', tags: [] }, { f: null }] } }, // 6
    { payload: { d: [{ tags: ['a', 'b', 'c'] }, { tags: ['a'] }] } }, // 7
  ];
  const nested = (filter: Filter): Filter => ({ must: [{ nested: { key: 'd', filter } }] });
  const likes = (v: boolean): Condition => ({ key: 'l', match: { value: v } });

  it('must_not inside nested: SOME element matches none of the conditions', () => {
    expect(select(nested({ must_not: [likes(true)] }), points)).toEqual([0, 1, 6, 7]);
  });

  it('must_not around nested: NO element satisfies the inner filter', () => {
    expect(select({ must_not: [{ nested: { key: 'd', filter: { must: [likes(true)] } } }] }, points)).toEqual([1, 3, 4, 5, 6, 7]);
  });

  it('a lone object at the key is not an array: nested does not look into it', () => {
    expect(select(nested({ must: [{ key: 'f', match: { value: 'meat' } }] }), points)).toEqual([0, 1, 2, 6]);
  });

  it('min_should inside nested counts conditions of one element', () => {
    const f = nested({ min_should: { conditions: [{ key: 'f', match: { value: 'meat' } }, likes(false)], min_count: 2 } });
    expect(select(f, points)).toEqual([1]);
  });

  it('is_empty and values_count inside nested are read on the element', () => {
    expect(select(nested({ must: [{ is_empty: { key: 'l' } }] }), points)).toEqual([6, 7]);
    expect(select(nested({ must: [{ key: 'tags', is_empty: true }] }), points)).toEqual([0, 1, 2, 6]);
    expect(select(nested({ must: [{ key: 'tags', values_count: { gte: 2 } }] }), points)).toEqual([7]);
    expect(select(nested({ must: [{ key: 'tags', values_count: { lt: 2 } }] }), points)).toEqual([0, 1, 2, 6, 7]);
  });

  it('has_vector inside nested never matches', () => {
    const pts: Point[] = [{ payload: { d: [{ f: 1 }] }, vectors: ['v'] }];
    expect(select(nested({ must: [{ has_vector: 'v' }] }), pts)).toEqual([]);
    expect(select({ must: [{ has_vector: 'v' }] }, pts)).toEqual([0]);
  });

  it('a key ending in [] is the same nested array', () => {
    expect(select({ must: [{ nested: { key: 'd[]', filter: { must: [likes(false)] } } }] }, points)).toEqual([0, 1]);
  });

  it('nested inside nested', () => {
    const pts: Point[] = [
      { payload: { a: [{ b: [{ x: 1, y: 2 }] }, { b: [{ x: 3, y: 4 }] }] } },
      { payload: { a: [{ b: [{ x: 1, y: 4 }] }] } },
    ];
    const f: Filter = {
      must: [{ nested: { key: 'a', filter: { must: [{ nested: { key: 'b', filter: { must: [{ key: 'x', match: { value: 1 } }, { key: 'y', match: { value: 4 } }] } } }] } } }],
    };
    expect(select(f, pts)).toEqual([1]);
  });

  it('a text index on the full nested path applies to the inner key', () => {
    const pts: Point[] = [{ payload: { d: [{ t: 'Quick fox' }] } }, { payload: { d: [{ t: 'quickly' }] } }];
    const word: TextIndexParams = { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true };
    const f: Filter = { must: [{ nested: { key: 'd', filter: { must: [{ key: 't', match: { text: 'quick' } }] } } }] };
    expect(select(f, pts)).toEqual([1]); // case-sensitive substring without an index
    expect(select(f, pts, { 'd[].t': word })).toEqual([0]);
  });
});

describe('compileFilter: quoted keys and repeated indexes', () => {
  it('a quoted key holds dots; a[0][1] indexes twice', () => {
    expect(matches({ key: '"a.b"', match: { value: 1 } }, { 'a.b': 1 })).toBe(true);
    expect(matches({ key: '"a.b"', match: { value: 1 } }, { a: { b: 1 } })).toBe(false);
    expect(matches({ key: 'x."y z"', match: { value: 2 } }, { x: { 'y z': 2 } })).toBe(true);
    expect(matches({ key: 'm[0][1]', match: { value: 'q' } }, { m: [['p', 'q']] })).toBe(true);
    expect(matches({ key: 'm[0][1]', match: { value: 'q' } }, { m: [['q', 'p']] })).toBe(false);
  });
});

describe('compileFilter: [] of a value that is not an array', () => {
  it('has no elements (as Qdrant), so a lone object is not reached through a[]', () => {
    expect(matches({ key: 'a[].f', match: { value: 1 } }, { a: { f: 1 } })).toBe(false);
    expect(matches({ key: 'a[].f', match: { value: 1 } }, { a: [{ f: 1 }] })).toBe(true);
    expect(matches({ key: 'a[]', match: { value: 1 } }, { a: 1 })).toBe(false);
    expect(matches({ is_empty: { key: 'a[].f' } }, { a: { f: 1 } })).toBe(true);
  });
});
