import { describe, expect, it } from 'vitest';
import { selectPayload, selectVector, VectorCopies } from '../../src/workers/shard/select.js';
import { responseJson } from '../../src/shared/response-json.js';
import type { Payload } from '../../src/shared/types.js';
import { rng } from '../helpers/random.js';

function payload(): Payload {
  return {
    city: 'Berlin',
    price: 9.5,
    tags: ['a', 'b'],
    geo: { lat: 52.5, lon: 13.4, meta: { source: 'gps', accuracy: 3 } },
    owner: null,
  };
}

describe('selectPayload', () => {
  it('none gives undefined; all gives the payload, or {} when there is none', () => {
    const p = payload();
    expect(selectPayload(p, { kind: 'none' })).toBeUndefined();
    expect(selectPayload(p, { kind: 'all' })).toEqual(payload());
    expect(selectPayload(null, { kind: 'all' })).toEqual({});
    expect(selectPayload(null, { kind: 'none' })).toBeUndefined();
  });

  it('include keeps only the listed top-level keys, including null values', () => {
    expect(selectPayload(payload(), { kind: 'include', keys: ['city', 'tags', 'owner'] })).toEqual({
      city: 'Berlin',
      tags: ['a', 'b'],
      owner: null,
    });
  });

  it('include with dotted paths rebuilds the nesting around the selected leaves', () => {
    expect(selectPayload(payload(), { kind: 'include', keys: ['geo.lat', 'geo.meta.source'] })).toEqual({
      geo: { lat: 52.5, meta: { source: 'gps' } },
    });
    expect(selectPayload(payload(), { kind: 'include', keys: ['geo.meta'] })).toEqual({
      geo: { meta: { source: 'gps', accuracy: 3 } },
    });
  });

  it('include skips missing keys; a container on the way stays (as {} or []), a scalar on the way stays whole (as Qdrant)', () => {
    expect(selectPayload(payload(), { kind: 'include', keys: ['nope'] })).toEqual({});
    expect(selectPayload(payload(), { kind: 'include', keys: ['nope', 'price'] })).toEqual({ price: 9.5 });
    // Qdrant keeps every node whose path agrees with the pattern as far as both go.
    expect(selectPayload(payload(), { kind: 'include', keys: ['geo.nope'] })).toEqual({ geo: {} });
    expect(selectPayload(payload(), { kind: 'include', keys: ['city.name'] })).toEqual({ city: 'Berlin' });
    expect(selectPayload(payload(), { kind: 'include', keys: ['tags.0'] })).toEqual({ tags: [] });
  });

  it('include on a missing payload gives {}', () => {
    expect(selectPayload(null, { kind: 'include', keys: ['city'] })).toEqual({});
  });

  it('include of both a parent and one of its children keeps the whole parent', () => {
    expect(selectPayload(payload(), { kind: 'include', keys: ['geo', 'geo.lat'] })).toEqual({ geo: payload().geo });
  });

  it('include does not modify the stored payload', () => {
    const p = payload();
    selectPayload(p, { kind: 'include', keys: ['geo', 'geo.lat', 'geo.meta.source'] });
    selectPayload(p, { kind: 'include', keys: ['geo.meta.source', 'geo'] });
    expect(p).toEqual(payload());
  });

  it('exclude drops top-level and dotted keys, leaving siblings', () => {
    expect(selectPayload(payload(), { kind: 'exclude', keys: ['price', 'geo.meta.source', 'geo.lon'] })).toEqual({
      city: 'Berlin',
      tags: ['a', 'b'],
      geo: { lat: 52.5, meta: { accuracy: 3 } },
      owner: null,
    });
  });

  it('exclude ignores keys that do not exist or walk through non-objects', () => {
    expect(selectPayload(payload(), { kind: 'exclude', keys: ['nope', 'city.x', 'geo.nope.deeper', 'tags.0'] })).toEqual(payload());
  });

  it('exclude returns a copy: the stored payload is untouched, nested objects included', () => {
    const p = payload();
    const out = selectPayload(p, { kind: 'exclude', keys: ['geo.meta.source', 'city'] })!;
    expect(p).toEqual(payload());
    (out.tags as string[]).push('c');
    expect(p.tags).toEqual(['a', 'b']);
    expect(selectPayload(null, { kind: 'exclude', keys: ['city'] })).toEqual({});
  });
});

describe('selectPayload through arrays', () => {
  function doc(): Payload {
    return {
      country: {
        name: 'Germany',
        cities: [
          { name: 'Berlin', population: 3.7, sights: [{ name: 'Gate', year: 1791 }, { name: 'Tower' }] },
          { name: 'Munich', population: 1.5, sights: [] },
          { population: 0.1 },
          'not an object',
        ],
      },
      matrix: [
        [1, 2],
        [3, 4],
      ],
      tags: ['a', 'b'],
    };
  }

  it('include `a[].b` keeps b in each element; an element without b stays {}, a scalar element stays whole', () => {
    expect(selectPayload(doc(), { kind: 'include', keys: ['country.cities[].name'] })).toEqual({
      country: { cities: [{ name: 'Berlin' }, { name: 'Munich' }, {}, 'not an object'] },
    });
  });

  it('include through nested arrays', () => {
    expect(selectPayload(doc(), { kind: 'include', keys: ['country.cities[].sights[].name'] })).toEqual({
      country: { cities: [{ sights: [{ name: 'Gate' }, { name: 'Tower' }] }, { sights: [] }, {}, 'not an object'] },
    });
    expect(selectPayload(doc(), { kind: 'include', keys: ['matrix[][]'] })).toEqual({ matrix: doc().matrix });
  });

  it('include of several keys inside the same array merges them per element', () => {
    expect(selectPayload(doc(), { kind: 'include', keys: ['country.cities[].name', 'country.cities[].population', 'country.name'] })).toEqual({
      country: {
        name: 'Germany',
        cities: [
          { name: 'Berlin', population: 3.7 },
          { name: 'Munich', population: 1.5 },
          { population: 0.1 },
          'not an object',
        ],
      },
    });
  });

  it('include `a[]` at the end keeps the whole array; on an object it keeps no key', () => {
    expect(selectPayload(doc(), { kind: 'include', keys: ['tags[]'] })).toEqual({ tags: ['a', 'b'] });
    expect(selectPayload(doc(), { kind: 'include', keys: ['country[]'] })).toEqual({ country: {} });
  });

  it('include without the `[]` step does not reach into array elements (as Qdrant)', () => {
    expect(selectPayload(doc(), { kind: 'include', keys: ['country.cities.name'] })).toEqual({ country: { cities: [] } });
  });

  it('an index step such as `a[0]` selects no element: Qdrant names elements only by `[]`', () => {
    expect(selectPayload(doc(), { kind: 'include', keys: ['tags[0]'] })).toEqual({ tags: [] });
    expect(selectPayload(doc(), { kind: 'exclude', keys: ['tags[0]'] })).toEqual(doc());
  });

  it('exclude `a[].b` removes b from every element, leaving the rest', () => {
    expect(selectPayload(doc(), { kind: 'exclude', keys: ['country.cities[].name', 'matrix', 'tags'] })).toEqual({
      country: {
        name: 'Germany',
        cities: [
          { population: 3.7, sights: [{ name: 'Gate', year: 1791 }, { name: 'Tower' }] },
          { population: 1.5, sights: [] },
          { population: 0.1 },
          'not an object',
        ],
      },
    });
    expect(selectPayload(doc(), { kind: 'exclude', keys: ['country.cities[].sights[].name'] })!.country).toMatchObject({
      cities: [{ sights: [{ year: 1791 }, {}] }, { sights: [] }, { population: 0.1 }, 'not an object'],
    });
  });

  it('exclude `a[]` empties the array; exclude without `[]` does not reach into elements', () => {
    expect(selectPayload(doc(), { kind: 'exclude', keys: ['tags[]', 'country', 'matrix[]'] })).toEqual({ tags: [], matrix: [] });
    expect(selectPayload(doc(), { kind: 'exclude', keys: ['country.cities.name'] })).toEqual(doc());
  });

  it('never changes the stored payload and shares no containers with it', () => {
    const p = doc();
    const inc = selectPayload(p, { kind: 'include', keys: ['country.cities[].sights'] })!;
    const exc = selectPayload(p, { kind: 'exclude', keys: ['country.cities[].name'] })!;
    expect(p).toEqual(doc());
    ((inc.country as Payload).cities as Payload[])[0]!.name = 'changed';
    ((exc.country as Payload).cities as Payload[])[0]!.population = 0;
    expect(p).toEqual(doc());
  });

  it('a key named __proto__ is selected like any other key', () => {
    const p = JSON.parse('{"__proto__": {"x": 1, "y": 2}, "z": [{"__proto__": 3}]}') as Payload;
    const out = selectPayload(p, { kind: 'include', keys: ['__proto__.x', 'z[].__proto__'] })!;
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":1},"z":[{"__proto__":3}]}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('selectVector', () => {
  const f32 = (...xs: number[]): Float32Array => Float32Array.from(xs);

  it('an unnamed collection answers a plain array', () => {
    const read = (name: string): Float32Array | undefined => (name === '' ? f32(1, 2, 3) : undefined);
    expect(selectVector([''], { kind: 'all' }, read)).toEqual(f32(1, 2, 3));
    expect(selectVector([''], { kind: 'names', names: [''] }, read)).toEqual(f32(1, 2, 3));
  });

  // As Qdrant: anything but "the unnamed dense vector alone" is a map, an empty one included.
  it('an unnamed collection answers {} when the names do not include the default, nothing for none', () => {
    const read = (): Float32Array => f32(1);
    expect(selectVector([''], { kind: 'names', names: ['image'] }, read)).toEqual({});
    expect(selectVector([''], { kind: 'names', names: [] }, read)).toEqual({});
    expect(selectVector([''], { kind: 'none' }, read)).toBeUndefined();
  });

  it('an unnamed collection with no stored vector (deleted) answers {}', () => {
    expect(selectVector([''], { kind: 'all' }, () => undefined)).toEqual({});
    expect(selectVector([''], { kind: 'names', names: [''] }, () => undefined)).toEqual({});
  });

  it('the unnamed vector beside a sparse one is bare only when it is all that is selected and present', () => {
    const sparse = { indices: Uint32Array.from([3]), values: f32(0.5) };
    const both = (name: string) => (name === '' ? f32(1, 2) : sparse);
    expect(selectVector(['', 'sp'], { kind: 'all' }, both)).toEqual({ '': f32(1, 2), sp: { indices: Uint32Array.from([3]), values: f32(0.5) } });
    expect(selectVector(['', 'sp'], { kind: 'names', names: [''] }, both)).toEqual(f32(1, 2));
    expect(selectVector(['', 'sp'], { kind: 'all' }, (name) => (name === '' ? f32(1, 2) : undefined))).toEqual(f32(1, 2));
    expect(selectVector(['', 'sp'], { kind: 'all' }, (name) => (name === '' ? undefined : sparse))).toEqual({ sp: { indices: Uint32Array.from([3]), values: f32(0.5) } });
  });

  it('a named collection answers a map of the selected names it has', () => {
    const store: Record<string, Float32Array> = { image: f32(1, 0), text: f32(0, 1, 0) };
    const read = (name: string): Float32Array | undefined => store[name];
    expect(selectVector(['image', 'text', 'audio'], { kind: 'all' }, read)).toEqual({ image: f32(1, 0), text: f32(0, 1, 0) });
    expect(selectVector(['image', 'text'], { kind: 'names', names: ['text'] }, read)).toEqual({ text: f32(0, 1, 0) });
    expect(selectVector(['image', 'text'], { kind: 'names', names: ['audio'] }, read)).toEqual({});
    expect(selectVector(['image', 'text'], { kind: 'none' }, read)).toBeUndefined();
  });

  it('a collection with one named (non-default) vector still answers a map', () => {
    expect(selectVector(['image'], { kind: 'all' }, () => f32(5))).toEqual({ image: f32(5) });
  });

  it('answers copies: a vector read from memory the shard reuses is not shared with the answer', () => {
    const stored = f32(1, 2);
    const out = selectVector([''], { kind: 'all' }, () => stored) as Float32Array;
    stored[0] = 9;
    expect(out).toEqual(f32(1, 2));
  });

  it("one answer's copies share a few chunks, each its own values, and no chunk is shared between answers", () => {
    const copies = new VectorCopies();
    const rows = Array.from({ length: 100 }, (_, i) => Float32Array.from({ length: 128 }, (_, j) => i * 1000 + j));
    const out = rows.map((r) => selectVector([''], { kind: 'all' }, () => r, copies) as Float32Array);
    for (const r of rows) r.fill(-1);
    out.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from({ length: 128 }, (_, j) => i * 1000 + j)));
    // 12,800 floats in chunks of 4K, 8K, 16K floats: three buffers, not a hundred.
    expect(new Set(out.map((v) => v.buffer)).size).toBe(3);
    const other = selectVector([''], { kind: 'all' }, () => rows[0]!, new VectorCopies()) as Float32Array;
    expect(out.some((v) => v.buffer === other.buffer)).toBe(false);
    // A vector longer than the next chunk gets a chunk of its own size.
    const long = new VectorCopies().copy(new Float32Array(10_000).fill(2));
    expect(long.length).toBe(10_000);
    expect(long.buffer.byteLength).toBe(40_000);
  });

  it('a named collection never asks for names that were not selected', () => {
    const asked: string[] = [];
    selectVector(['a', 'b', 'c'], { kind: 'names', names: ['b'] }, (n) => {
      asked.push(n);
      return f32(1);
    });
    expect(asked).toEqual(['b']);
  });

});

// How REST writes a vector the shards return (float32 values): response-json.ts.
describe('vectors in a REST response', () => {
  // responseJson answers bytes when vectors are in it.
  const json = (out: string | Uint8Array): string => (typeof out === 'string' ? out : new TextDecoder().decode(out));
  const printed = (stored: Float32Array): number[] => (JSON.parse(json(responseJson({ result: [{ id: 1, payload: { vector: 'kept' }, vector: stored }] }))) as { result: { vector: number[] }[] }).result[0]!.vector;

  it('a payload key named vector is left as it is; a payload string never reads as a vector', () => {
    const text = json(responseJson({ result: [{ id: 1, payload: { vector: 'x', s: '\u0000' }, vector: Float32Array.of(0.5) }] }));
    expect(JSON.parse(text)).toEqual({ result: [{ id: 1, payload: { vector: 'x', s: '\u0000' }, vector: [0.5] }] });
  });

  it('prints float32 values as their shortest round-tripping decimals', () => {
    const inputs = [0.1, 0.2, 0.3, 1 / 3, -0.7, 1e-7, 123.456, 1.17549435e-38, 1e-45, 16777216.5];
    const stored = Float32Array.from(inputs);
    const out = printed(stored);
    expect(out).toEqual([0.1, 0.2, 0.3, 0.33333334, -0.7, 1e-7, 123.456, 1.1754944e-38, 1e-45, 16777216]);
    // Not the widened doubles.
    expect(out[0]).not.toBe(stored[0]);
    expect(stored[0]).toBe(0.10000000149011612);
    // Each printed value reads back to exactly the stored float32.
    out.forEach((v, i) => expect(Math.fround(v)).toBe(stored[i]));
  });

  it('keeps integers, zero, infinities and NaN as they are', () => {
    const stored = Float32Array.from([0, -0, 1, -2, 16777216, Infinity, -Infinity, NaN]);
    const out = printed(stored);
    // JSON holds no infinities or NaN: written as JSON.stringify writes them (null); -0 as 0.
    expect(out).toEqual([0, 0, 1, -2, 16777216, null, null, null]);
  });

  it('random float32 values print short and round-trip exactly', () => {
    let seed = 12345;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    // Finite normal floats of both signs over the whole exponent range, below 2^24 in magnitude
    // (larger float32 values are all integers; see the separate case below).
    const bits = new Uint32Array(2000);
    for (let i = 0; i < bits.length; i++) {
      const sign = next() & 1;
      const exp = 1 + (next() % (127 + 23)); // biased exponent 1..150: magnitude < 2^24
      bits[i] = ((sign << 31) | (exp << 23) | (next() & 0x7fffff)) >>> 0;
    }
    const stored = new Float32Array(bits.buffer);
    const vs = printed(stored);
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i]!;
      if (Math.fround(v) !== stored[i]) expect(`${i}: ${v} reads back as ${Math.fround(v)}`).toBe(`${i}: ${stored[i]}`);
      // 9 significant digits always suffice for float32.
      const digits = v.toExponential().replace(/^-/, '').split('e')[0]!.replace('.', '').length;
      expect(digits).toBeLessThanOrEqual(9);
      // No shorter nearest-rounding exists (the value is not simply the widened double).
      if (digits > 1) expect(Math.fround(Number(stored[i]!.toPrecision(digits - 1)))).not.toBe(stored[i]);
    }
  });

  // BUG (reported): every float32 of magnitude >= 2^24 is an integer, and float32ToNumber returns
  // integers unchanged, so large components print as the full widened double: the largest float32
  // prints as 3.4028234663852886e+38 and 1.2345e20 as 123449998973201290000, where Qdrant prints
  // 3.4028235e38 and 1.2345e20 (shortest decimals that read back to the same float32).
  it('prints large float32 values with their shortest digits too', () => {
    const stored = Float32Array.of(3.4028234663852886e38, 1.2345e20, -9.87654e30);
    const out = printed(stored);
    out.forEach((v, i) => expect(Math.fround(v)).toBe(stored[i]));
    expect(out).toEqual([3.4028235e38, 1.2345e20, -9.87654e30]);
  });

  // Just above a power of two the float's rounding interval is lopsided, so the nearest 8-digit
  // decimal can miss while its neighbour hits: 2^-96 once printed as 1.26217745e-29 (9 digits)
  // where 1.2621775e-29 (8 digits) reads back to the same float32, as Qdrant prints it.
  it('prints 2^-96 with its shortest digits', () => {
    const out = printed(Float32Array.of(2 ** -96));
    expect(Math.fround(1.2621775e-29)).toBe(2 ** -96);
    expect(out).toEqual([1.2621775e-29]);
  });

  it('prints every power of two, and random float32 values, with digits that read back', () => {
    const bits = new Uint32Array(1);
    const f = new Float32Array(bits.buffer);
    const values: number[] = [];
    for (let e = -149; e <= 127; e++) values.push(Math.fround(2 ** e));
    const random = rng(96);
    for (let i = 0; i < 2000; i++) {
      bits[0] = Math.floor(random() * 2 ** 32);
      if (Number.isFinite(f[0]!)) values.push(f[0]!);
    }
    const out = printed(Float32Array.from(values));
    out.forEach((v, i) => {
      expect(Math.fround(v)).toBe(values[i]);
      // Never longer than the 9 digits that always suffice for a float32.
      expect(v === 0 ? 1 : Number(v.toExponential().split('e')[0]!.replace(/[-.]/g, '').length)).toBeLessThanOrEqual(9);
    });
    // Powers of two just above which the nearest short decimal misses get the shorter neighbour.
    expect(out[-96 + 149]).toBe(1.2621775e-29);
  });
});
