// Strict mode's rules alone, on a collection's meta: which field indexes answer which conditions
// (Qdrant's inference: a UUID index only for UUID strings, any index for is_empty, is_null and
// values_count, an integer index only with the lookup or range a condition asks for), the size
// limits' refusals in Qdrant's wording, and floats printed as Rust prints an f32.

import { describe, expect, it } from 'vitest';
import type { CollectionMeta, FieldIndexSchema, StrictModeSettings } from '../../../src/shared/types.js';
import { rustF32 } from '../../../src/shared/float.js';
import { StrictMode, unindexedKeys } from '../../../src/workers/service/strict-mode.js';
import { metaOf } from '../shard/helpers.js';

function meta(schema: Record<string, FieldIndexSchema> = {}, strict: StrictModeSettings = { enabled: true }): CollectionMeta {
  const m = metaOf(2);
  m.config.payload_schema = schema;
  m.config.strict_mode_config = strict;
  return m;
}

const UUID = '550e8400-e29b-41d4-a716-446655440000';

describe('strict mode rules', () => {
  it('asks a string match for a keyword index, and a UUID index only when every value is a UUID', () => {
    expect(unindexedKeys(meta(), { must: [{ key: 'a', match: { value: 'red' } }] })).toEqual([{ key: 'a', types: ['keyword'] }]);
    expect(unindexedKeys(meta(), { must: [{ key: 'a', match: { any: [UUID, UUID.toUpperCase()] } }] })).toEqual([{ key: 'a', types: ['keyword', 'uuid'] }]);
    expect(unindexedKeys(meta(), { must: [{ key: 'a', match: { except: [UUID, 'x'] } }] })).toEqual([{ key: 'a', types: ['keyword'] }]);
    expect(unindexedKeys(meta({ a: { type: 'uuid' } }), { must: [{ key: 'a', match: { value: UUID } }] })).toEqual([]);
    expect(unindexedKeys(meta({ a: { type: 'uuid' } }), { must: [{ key: 'a', match: { value: 'red' } }] })).toHaveLength(1);
  });

  it('is_empty, is_null and values_count take any index; nested keys are prefixed', () => {
    const any = ['bool', 'datetime', 'float', 'geo', 'integer', 'keyword', 'text', 'uuid'];
    expect(unindexedKeys(meta(), { must: [{ is_empty: { key: 'e' } }, { is_null: { key: 'n' } }, { key: 'c', values_count: { gt: 1 } }] })).toEqual([
      { key: 'e', types: any },
      { key: 'n', types: any },
      { key: 'c', types: any },
    ]);
    expect(unindexedKeys(meta({ e: { type: 'geo' } }), { must: [{ is_empty: { key: 'e' } }] })).toEqual([]);
    expect(unindexedKeys(meta(), { must: [{ nested: { key: 'arr', filter: { must: [{ key: 'x', range: { gt: 1 } }] } } }] })).toEqual([{ key: 'arr[].x', types: ['float', 'integer'] }]);
    // has_id and has_vector need no index.
    expect(unindexedKeys(meta(), { must: [{ has_id: [1] }, { has_vector: 'v' }] })).toEqual([]);
  });

  it('an integer index answers a match only with lookup, a range only with range', () => {
    const noLookup = meta({ n: { type: 'integer', params: { lookup: false, range: true } } });
    expect(unindexedKeys(noLookup, { must: [{ key: 'n', match: { value: 3 } }] })).toEqual([{ key: 'n', types: ['integer'] }]);
    expect(unindexedKeys(noLookup, { must: [{ key: 'n', range: { gte: 3 } }] })).toEqual([]);
    const noRange = meta({ n: { type: 'integer', params: { lookup: true, range: false } } });
    expect(unindexedKeys(noRange, { must: [{ key: 'n', range: { gte: 3 } }] })).toEqual([{ key: 'n', types: ['float', 'integer'] }]);
    expect(unindexedKeys(noRange, { must: [{ key: 'n', match: { value: 3 } }] })).toEqual([]);
  });

  it('refuses a write once the collection stores its limit, in MB as Qdrant prints them', () => {
    const strict = StrictMode.of(meta({}, { enabled: true, max_collection_vector_size_bytes: 1000, max_collection_payload_size_bytes: 2 ** 20 }))!;
    expect(strict.countsStorage(true)).toBe(true);
    expect(() => strict.storage({ points: 0, vectors: 999, payload: 0 }, false)).not.toThrow();
    expect(() => strict.storage({ points: 0, vectors: 1000, payload: 2 ** 20 }, false)).toThrow('Bad request: Max vector storage size limit of 0.0009536743MB reached!');
    // A payload write is held to the payload limit alone.
    expect(() => strict.storage({ points: 0, vectors: 1000, payload: 0 }, true)).not.toThrow();
    expect(() => strict.storage({ points: 0, vectors: 0, payload: 2 ** 20 }, true)).toThrow('Bad request: Max payload storage size limit of 1MB reached!');
    const vectorsOnly = StrictMode.of(meta({}, { enabled: true, max_collection_vector_size_bytes: 1 }))!;
    expect(vectorsOnly.countsStorage(true)).toBe(false);
    expect(vectorsOnly.countsStorage(false)).toBe(true);
    // Points last, and for vector writes only.
    const points = StrictMode.of(meta({}, { enabled: true, max_points_count: 3, max_collection_payload_size_bytes: 10 }))!;
    expect(() => points.storage({ points: 3, vectors: 0, payload: 10 }, false)).toThrow('Max payload storage size limit');
    expect(() => points.storage({ points: 3, vectors: 0, payload: 0 }, false)).toThrow('Bad request: Max points count limit of 3 reached!');
    expect(() => points.storage({ points: 3, vectors: 0, payload: 0 }, true)).not.toThrow();
    expect(StrictMode.of(meta({}, { enabled: false, max_collection_vector_size_bytes: 1 }))).toBeNull();
  });

  it('prints floats as Rust prints an f32: the shortest decimal that reads back, no exponent', () => {
    expect(rustF32(1)).toBe('1');
    expect(rustF32(1000000 / 2 ** 20)).toBe('0.9536743');
    expect(rustF32(0.1)).toBe('0.1');
    expect(rustF32(1 / 2 ** 20)).toBe('0.0000009536743');
    expect(rustF32(1e21)).toBe('1000000000000000000000');
    expect(rustF32(1536)).toBe('1536');
  });
});
