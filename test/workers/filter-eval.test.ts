import { describe, expect, it } from 'vitest';
import { compileFilter, haversine, type FilterView } from '../../src/workers/shard/filter-eval.js';
import type { Condition, Filter } from '../../src/shared/filter.js';
import type { Payload, PointId, TextIndexParams } from '../../src/shared/types.js';

interface Point {
  id?: PointId;
  payload: Payload | null;
  vectors?: string[];
}

function view(points: Point[], text: Record<string, TextIndexParams> = {}): FilterView {
  return {
    payload: (slot) => points[slot]!.payload,
    id: (slot) => points[slot]!.id ?? slot,
    hasVector: (slot, name) => (points[slot]!.vectors ?? []).includes(name),
    textIndex: (key) => text[key],
  };
}

/** Slots (indices into `points`) that the filter accepts. */
function select(filter: Filter, points: Point[], text: Record<string, TextIndexParams> = {}): number[] {
  const pred = compileFilter(filter, view(points, text));
  return points.map((_, i) => i).filter((i) => pred(i));
}

function matches(cond: Condition, payload: Payload | null): boolean {
  return compileFilter({ must: [cond] }, view([{ payload }]))(0);
}

type Row = [payload: Payload | null, expected: boolean];

/** A condition against a table of payloads. */
function table(name: string, cond: Condition, rows: Row[]): void {
  describe(name, () => {
    it.each(rows.map(([payload, expected]) => ({ label: JSON.stringify(payload), payload, expected })))(
      '$label -> $expected',
      ({ payload, expected }) => {
        expect(matches(cond, payload)).toBe(expected);
      },
    );
  });
}

describe('compileFilter: match', () => {
  table('value (keyword)', { key: 'color', match: { value: 'red' } }, [
    [{ color: 'red' }, true],
    [{ color: 'Red' }, false],
    [{ color: 'reddish' }, false],
    [{ color: ['blue', 'red'] }, true], // any element of an array
    [{ color: ['blue'] }, false],
    [{ color: [] }, false],
    [{ color: null }, false],
    [{ other: 'red' }, false],
    [{}, false],
    [null, false],
    [{ color: { value: 'red' } }, false],
    [{ color: [['red']] }, false], // arrays of arrays are flattened one level only (as Qdrant)
  ]);

  table('value (integer)', { key: 'n', match: { value: 3 } }, [
    [{ n: 3 }, true],
    [{ n: '3' }, false],
    [{ n: 3.5 }, false],
    [{ n: [1, 2, 3] }, true],
    [{ n: true }, false],
  ]);

  table('value (bool)', { key: 'flag', match: { value: true } }, [
    [{ flag: true }, true],
    [{ flag: false }, false],
    [{ flag: 'true' }, false],
    [{ flag: 1 }, false],
    [{ flag: [false, true] }, true],
  ]);

  table('value on a dotted path', { key: 'a.b', match: { value: 'x' } }, [
    [{ a: { b: 'x' } }, true],
    [{ a: { b: 'y' } }, false],
    [{ a: { b: ['y', 'x'] } }, true],
    [{ a: [{ b: 'y' }, { b: 'x' }] }, true], // arrays on the way are walked
    [{ a: [{ c: 'x' }] }, false],
    [{ a: 'x' }, false],
    [{ 'a.b': 'x' }, false], // a dot is a path separator, not part of a key
    [{ a: null }, false],
    [{}, false],
  ]);

  table('value on a.b[].c', { key: 'a.b[].c', match: { value: 2 } }, [
    [{ a: { b: [{ c: 1 }, { c: 2 }] } }, true],
    [{ a: { b: [{ c: 1 }, { c: 3 }] } }, false],
    [{ a: { b: [{ c: [5, 2] }] } }, true],
    [{ a: [{ b: [{ c: 9 }] }, { b: [{ c: 2 }] }] }, true],
    [{ a: { b: [] } }, false],
    [{ a: {} }, false],
  ]);

  table('value on a deep path through nested arrays', { key: 'country.cities.name', match: { value: 'Munich' } }, [
    [{ country: { cities: [{ name: 'Berlin' }, { name: 'Munich' }] } }, true],
    [{ country: [{ cities: [{ name: 'Tokyo' }] }, { cities: [{ name: 'Munich' }] }] }, true],
    [{ country: { cities: [{ name: 'Berlin' }] } }, false],
  ]);

  table('value on an array index arr[1]', { key: 'arr[1]', match: { value: 'y' } }, [
    [{ arr: ['x', 'y'] }, true],
    [{ arr: ['y', 'x'] }, false],
    [{ arr: ['y'] }, false],
  ]);

  table('any', { key: 'color', match: { any: ['red', 'blue'] } }, [
    [{ color: 'red' }, true],
    [{ color: 'blue' }, true],
    [{ color: 'green' }, false],
    [{ color: ['green', 'blue'] }, true],
    [{ color: ['green', 'black'] }, false],
    [{ color: [] }, false],
    [{ color: null }, false],
    [{}, false],
  ]);

  table('any (integers)', { key: 'n', match: { any: [1, 2] } }, [
    [{ n: 2 }, true],
    [{ n: '2' }, false],
    [{ n: [5, 1] }, true],
    [{ n: 3 }, false],
  ]);

  table('except', { key: 'color', match: { except: ['red', 'blue'] } }, [
    [{ color: 'green' }, true],
    [{ color: 'red' }, false],
    [{ color: 'blue' }, false],
    [{ color: ['red', 'green'] }, true], // one element outside the list is enough
    [{ color: ['red', 'blue'] }, false],
    [{ color: 5 }, true],
    [{}, true], // a missing field satisfies except
    [{ other: 'red' }, true],
    [null, true],
    [{ color: { nested: 'red' } }, true],
  ]);

  table('except on a nested path', { key: 'a.b', match: { except: [1] } }, [
    [{ a: { b: 1 } }, false],
    [{ a: { b: 2 } }, true],
    [{ a: {} }, true],
    [{ a: [{ b: 1 }, { b: 1 }] }, false],
    [{ a: [{ b: 1 }, { b: 3 }] }, true],
  ]);

  table('text (substring, case-sensitive without a full-text index)', { key: 'desc', match: { text: 'quick' } }, [
    [{ desc: 'the quick brown fox' }, true],
    [{ desc: 'quickly' }, true],
    [{ desc: 'Quick' }, false],
    [{ desc: ['slow', 'very quick'] }, true],
    [{ desc: 5 }, false],
    [{}, false],
  ]);

  table('phrase', { key: 'desc', match: { phrase: 'quick brown' } }, [
    [{ desc: 'the quick brown fox' }, true],
    [{ desc: 'the brown quick fox' }, false],
    [{ desc: 'quick  brown' }, false],
  ]);

  // BUG (reported): Qdrant's MatchExcept never matches a stored null (condition_checker.rs:
  // `(Value::Null, _) => false`); only a *missing* field counts as empty for `except`. Here
  // a null leaf satisfies `except` because `!set.has(null)` is true.
  it('except does not match a field whose value is null', () => {
    expect(matches({ key: 'color', match: { except: ['red'] } }, { color: null })).toBe(false);
  });
});

describe('compileFilter: range', () => {
  table('numbers gte/lt', { key: 'price', range: { gte: 10, lt: 20 } }, [
    [{ price: 10 }, true],
    [{ price: 19.99 }, true],
    [{ price: 20 }, false],
    [{ price: 9.999 }, false],
    [{ price: -15 }, false],
    [{ price: [5, 15] }, true],
    [{ price: [5, 25] }, false],
    [{ price: '15' }, false],
    [{ price: null }, false],
    [{ price: true }, false],
    [{}, false],
  ]);

  table('numbers gt/lte', { key: 'price', range: { gt: 10, lte: 20 } }, [
    [{ price: 10 }, false],
    [{ price: 10.0001 }, true],
    [{ price: 20 }, true],
    [{ price: 20.0001 }, false],
  ]);

  table('null bounds are open', { key: 'x', range: { gt: null, gte: 0, lt: null, lte: null } }, [
    [{ x: 0 }, true],
    [{ x: 1e9 }, true],
    [{ x: -1 }, false],
  ]);

  table('numbers on a nested array path', { key: 'country.cities[].population', range: { gte: 9 } }, [
    [{ country: { cities: [{ population: 3.7 }, { population: 9.3 }] } }, true],
    [{ country: { cities: [{ population: 3.7 }, { population: 1.5 }] } }, false],
  ]);

  table(
    'RFC 3339 datetimes in different zones compare as instants',
    { key: 'ts', range: { gte: '2024-01-01T00:00:00Z', lt: '2024-01-02T00:00:00Z' } },
    [
      [{ ts: '2024-01-01T00:00:00Z' }, true],
      [{ ts: '2024-01-01T23:59:59Z' }, true],
      [{ ts: '2024-01-01T23:59:59.999Z' }, true],
      [{ ts: '2024-01-02T00:00:00Z' }, false],
      [{ ts: '2023-12-31T23:59:59Z' }, false],
      [{ ts: '2024-01-02T01:00:00+02:00' }, true], // 2024-01-01T23:00Z
      [{ ts: '2024-01-01T01:00:00+02:00' }, false], // 2023-12-31T23:00Z
      [{ ts: '2023-12-31T23:30:00-01:00' }, true], // 2024-01-01T00:30Z
      [{ ts: '2024-01-01T19:30:00-05:00' }, false], // 2024-01-02T00:30Z: the next day
      [{ ts: '2024-01-01T19:30:00-04:00' }, true], // 2024-01-01T23:30Z
      [{ ts: '2024-01-01T20:00:00-04:00' }, false], // 2024-01-02T00:00Z, excluded by lt
      [{ ts: ['1999-01-01T00:00:00Z', '2024-01-01T12:00:00Z'] }, true],
      [{ ts: ['1999-01-01T00:00:00Z'] }, false],
      [{ ts: 1704067200000 }, false], // numbers are not datetimes
      [{ ts: 'garbage' }, false],
      [{}, false],
    ],
  );

  table('datetime bounds with offsets', { key: 'ts', range: { gt: '2024-01-01T02:00:00+02:00' } }, [
    [{ ts: '2024-01-01T00:00:00Z' }, false],
    [{ ts: '2024-01-01T00:00:01Z' }, true],
    [{ ts: '2024-01-01T00:00:00.5Z' }, true],
    [{ ts: '2023-12-31T23:59:59Z' }, false],
  ]);

  // BUG (reported): Qdrant assumes UTC for datetimes without an offset ("UTC is always assumed
  // when the timezone is not specified", docs/concepts/payload#datetime). Date.parse reads
  // '2024-01-01T00:00:00' as *local* time, so results depend on the server's TZ. Hidden on a
  // UTC machine; shown here by switching the process zone (vitest runs each file in its own fork).
  const tzSwitchWorks = ((): boolean => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/New_York';
    const ok = new Date(Date.UTC(2024, 0, 1)).getTimezoneOffset() === 300;
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
    return ok;
  })();
  (tzSwitchWorks ? it : it.skip)('datetimes without an offset are UTC whatever the process time zone', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const inFirstSecond = { key: 'ts', range: { gte: '2024-01-01T00:00:00Z', lt: '2024-01-01T00:00:01Z' } };
      expect(matches(inFirstSecond, { ts: '2024-01-01T00:00:00' })).toBe(true);
      const naiveBounds = { key: 'ts', range: { gte: '2024-01-01T00:00:00', lt: '2024-01-01T00:00:01' } };
      expect(matches(naiveBounds, { ts: '2024-01-01T00:00:00Z' })).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

describe('compileFilter: geo', () => {
  const berlin = { lon: 13.404954, lat: 52.520008 };
  const moscow = { lon: 37.617298, lat: 55.755825 };

  table(
    'geo_bounding_box',
    { key: 'loc', geo_bounding_box: { top_left: { lon: 13.08835, lat: 52.67551 }, bottom_right: { lon: 13.76116, lat: 52.33826 } } },
    [
      [{ loc: berlin }, true],
      [{ loc: moscow }, false],
      [{ loc: [moscow, berlin] }, true],
      [{ loc: { lon: 13.4, lat: 52.7 } }, false], // north of the box
      [{ loc: { lon: 13.4, lat: 52.3 } }, false], // south
      [{ loc: { lon: 13.0, lat: 52.5 } }, false], // west
      [{ loc: { lon: 13.8, lat: 52.5 } }, false], // east
      [{ loc: { lat: 52.52 } }, false],
      [{ loc: { lon: '13.4', lat: 52.52 } }, false],
      [{ loc: 'Berlin' }, false],
      [{}, false],
    ],
  );

  table(
    'geo_bounding_box crossing the antimeridian (top_left.lon > bottom_right.lon)',
    { key: 'loc', geo_bounding_box: { top_left: { lon: 170, lat: 10 }, bottom_right: { lon: -170, lat: -10 } } },
    [
      [{ loc: { lon: 175, lat: 0 } }, true],
      [{ loc: { lon: -175, lat: 5 } }, true],
      [{ loc: { lon: 180, lat: 0 } }, true],
      [{ loc: { lon: -180, lat: 0 } }, true],
      [{ loc: { lon: 0, lat: 0 } }, false], // the other side of the world
      [{ loc: { lon: 169, lat: 0 } }, false],
      [{ loc: { lon: -169, lat: 0 } }, false],
      [{ loc: { lon: 175, lat: 11 } }, false],
      [{ loc: { lon: 175, lat: -11 } }, false],
    ],
  );

  it('haversine: Berlin-Moscow is about 1,610 km, and symmetric', () => {
    const d = haversine(berlin, moscow);
    expect(d).toBeGreaterThan(1_600_000);
    expect(d).toBeLessThan(1_620_000);
    expect(haversine(moscow, berlin)).toBeCloseTo(d, 6);
    expect(haversine(berlin, berlin)).toBe(0);
    // One degree of latitude is ~111.2 km.
    expect(haversine({ lon: 0, lat: 0 }, { lon: 0, lat: 1 })).toBeCloseTo(111_195, -2);
  });

  table('geo_radius 10 km around Berlin', { key: 'loc', geo_radius: { center: berlin, radius: 10_000 } }, [
    [{ loc: berlin }, true],
    [{ loc: { lon: 13.404954, lat: 52.565 } }, true], // ~5 km north
    [{ loc: { lon: 13.404954, lat: 52.62 } }, false], // ~11 km north
    [{ loc: { lon: 13.06, lat: 52.4 } }, false], // Potsdam, ~27 km
    [{ loc: [moscow, { lon: 13.41, lat: 52.52 }] }, true],
    [{ loc: moscow }, false],
    [{ loc: null }, false],
  ]);

  table('geo_radius across the antimeridian', { key: 'loc', geo_radius: { center: { lon: 179.9, lat: 0 }, radius: 50_000 } }, [
    [{ loc: { lon: -179.9, lat: 0 } }, true], // ~22 km away across the date line
    [{ loc: { lon: 179, lat: 0 } }, false], // ~100 km
  ]);

  const square = [
    { lon: 0, lat: 0 },
    { lon: 10, lat: 0 },
    { lon: 10, lat: 10 },
    { lon: 0, lat: 10 },
    { lon: 0, lat: 0 },
  ];
  const hole = [
    { lon: 4, lat: 4 },
    { lon: 6, lat: 4 },
    { lon: 6, lat: 6 },
    { lon: 4, lat: 6 },
    { lon: 4, lat: 4 },
  ];
  table('geo_polygon with an interior hole', { key: 'loc', geo_polygon: { exterior: { points: square }, interiors: [{ points: hole }] } }, [
    [{ loc: { lon: 2, lat: 2 } }, true],
    [{ loc: { lon: 5, lat: 8 } }, true],
    [{ loc: { lon: 5, lat: 5 } }, false], // in the hole
    [{ loc: { lon: 4.5, lat: 5.5 } }, false],
    [{ loc: { lon: 11, lat: 5 } }, false],
    [{ loc: { lon: -1, lat: 5 } }, false],
    [{ loc: { lon: 5, lat: 11 } }, false],
    [{ loc: [{ lon: 5, lat: 5 }, { lon: 20, lat: 20 }] }, false],
    [{ loc: [{ lon: 5, lat: 5 }, { lon: 1, lat: 9 }] }, true],
  ]);

  table('geo_polygon without interiors', { key: 'loc', geo_polygon: { exterior: { points: square } } }, [
    [{ loc: { lon: 5, lat: 5 } }, true],
    [{ loc: { lon: 15, lat: 5 } }, false],
  ]);

  const triangle = [
    { lon: 0, lat: 0 },
    { lon: 10, lat: 0 },
    { lon: 0, lat: 10 },
    { lon: 0, lat: 0 },
  ];
  table('geo_polygon triangle (diagonal edge)', { key: 'loc', geo_polygon: { exterior: { points: triangle } } }, [
    [{ loc: { lon: 2, lat: 2 } }, true],
    [{ loc: { lon: 4.9, lat: 4.9 } }, true],
    [{ loc: { lon: 5.1, lat: 5.1 } }, false],
    [{ loc: { lon: 8, lat: 8 } }, false],
  ]);
});

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

  table('is_empty on a path through an array of objects', { is_empty: { key: 'a.b' } }, [
    [{ a: [{ c: 1 }, { c: 2 }] }, true],
    [{ a: [{ c: 1 }, { b: 2 }] }, false],
    [{ a: [] }, true],
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

describe('text match with a full-text index', () => {
  const word: TextIndexParams = { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true };
  const points: Point[] = [
    { payload: { t: 'The quick brown fox' } },
    { payload: { t: 'quickly browning' } },
    { payload: { t: 'Brown, the FOX; quick!' } },
  ];

  it('without an index, text is a substring match', () => {
    expect(select({ must: [{ key: 't', match: { text: 'quick' } }] }, points)).toEqual([0, 1, 2]);
  });

  it('with an index, every query token must be a token of the document, case folded', () => {
    expect(select({ must: [{ key: 't', match: { text: 'quick' } }] }, points, { t: word })).toEqual([0, 2]);
    expect(select({ must: [{ key: 't', match: { text: 'fox BROWN' } }] }, points, { t: word })).toEqual([0, 2]);
  });

  it('phrase needs the tokens consecutively and in order', () => {
    expect(select({ must: [{ key: 't', match: { phrase: 'brown fox' } }] }, points, { t: word })).toEqual([0]);
  });

  it('the prefix tokenizer matches a query token against prefixes of document tokens', () => {
    const prefix: TextIndexParams = { ...word, tokenizer: 'prefix' };
    expect(select({ must: [{ key: 't', match: { text: 'quic brow' } }] }, points, { t: prefix })).toEqual([0, 1, 2]);
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

describe('compileFilter: text_any, prefix, empty phrase', () => {
  const word: TextIndexParams = { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true };
  const points: Point[] = [{ payload: { t: 'The quick brown fox' } }, { payload: { t: 'lazy dog' } }, { payload: { t: 5 } }, { payload: {} }];

  it('text_any with an index: one query token is enough', () => {
    expect(select({ must: [{ key: 't', match: { text_any: 'DOG cat' } }] }, points, { t: word })).toEqual([1]);
    expect(select({ must: [{ key: 't', match: { text_any: 'fox dog' } }] }, points, { t: word })).toEqual([0, 1]);
    expect(select({ must: [{ key: 't', match: { text_any: '' } }] }, points, { t: word })).toEqual([]);
  });

  it('text_any without an index: one whitespace-separated word as a substring', () => {
    expect(select({ must: [{ key: 't', match: { text_any: 'uick zzz' } }] }, points)).toEqual([0]);
    expect(select({ must: [{ key: 't', match: { text_any: '  ' } }] }, points)).toEqual([]);
  });

  it('an empty phrase matches nothing with an index, and is in every string without one', () => {
    expect(select({ must: [{ key: 't', match: { phrase: '' } }] }, points, { t: word })).toEqual([]);
    expect(select({ must: [{ key: 't', match: { phrase: '' } }] }, points)).toEqual([0, 1]);
  });

  it('prefix: string values starting with it, case-sensitive', () => {
    expect(select({ must: [{ key: 't', match: { prefix: 'The q' } }] }, points)).toEqual([0]);
    expect(select({ must: [{ key: 't', match: { prefix: 'the' } }] }, points)).toEqual([]);
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
