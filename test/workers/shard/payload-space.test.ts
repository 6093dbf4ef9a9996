// Payloads and their indexes; facets count the index's own values.

import { describe, expect, it } from 'vitest';
import type { FieldIndexSchema, Payload } from '../../../src/shared/types.js';
import { facetCounts, PayloadSpace } from '../../../src/workers/shard/payload-space.js';

function space(key: string, schema: FieldIndexSchema, payloads: (Payload | null)[]): PayloadSpace {
  const p = new PayloadSpace(() => null);
  payloads.forEach((pl, slot) => p.set(slot, pl));
  p.createIndex(key, schema, payloads.map((_, slot) => slot));
  return p;
}

const facet = (p: PayloadSpace, key: string, slots: number[], top: number | null = null) => facetCounts(p.index(key)!, slots, top);

describe('PayloadSpace', () => {
  it('keeps indexes in step with set payloads, and answers candidates from them', () => {
    const p = space('c', { type: 'keyword' }, [{ c: 'red' }, { c: 'blue' }, null]);
    p.set(2, { c: 'red' });
    p.set(0, null);
    expect([...p.candidates({ must: [{ key: 'c', match: { value: 'red' } }] }, () => undefined)!]).toEqual([2]);
    expect(p.indexedPoints()).toEqual({ c: 2 });
    p.dropIndex('c');
    expect(p.candidates({ must: [{ key: 'c', match: { value: 'red' } }] }, () => undefined)).toBeNull();
  });

  it('facets count each distinct value once per point, and keep the top values by count then value', () => {
    const p = space('t', { type: 'keyword' }, [{ t: ['a', 'a', 'b'] }, { t: 'b' }, { t: 'c' }, { t: 7 }]);
    expect(facet(p, 't', [0, 1, 2, 3])).toEqual({ values: ['a', 'b', 'c'], counts: [1, 2, 1] });
    expect(facet(p, 't', [0, 1, 2, 3], 2)).toEqual({ values: ['b', 'a'], counts: [2, 1] });
  });

  it('facets count what the index holds: valid lowercased UUIDs, exact integers, booleans', () => {
    const u = '550e8400-e29b-41d4-a716-446655440000';
    const uuids = space('u', { type: 'uuid' }, [{ u }, { u: [u.toUpperCase(), u] }, { u: 'x' }]);
    expect(facet(uuids, 'u', [0, 1, 2])).toEqual({ values: [u], counts: [2] });
    const ints = space('n', { type: 'integer' }, [{ n: 1e20 }, { n: [7, 7] }, { n: 2 ** 53 + 2 }, { n: 7.5 }]);
    expect(facet(ints, 'n', [0, 1, 2, 3])).toEqual({ values: [7], counts: [1] });
    const bools = space('b', { type: 'bool' }, [{ b: true }, { b: [false, true] }, { b: 'true' }]);
    expect(facet(bools, 'b', [0, 1, 2])).toEqual({ values: [true, false], counts: [2, 1] });
    const floats = space('f', { type: 'float' }, [{ f: 1.5 }]);
    expect(facet(floats, 'f', [0])).toEqual({ values: [], counts: [] });
  });
});
