// Conversions from decoded protobuf messages (as @grpc/proto-loader gives them) to the REST
// request shapes, for the cases a round trip through the server does not reach easily.

import { describe, expect, it } from 'vitest';
import { plain } from '../../src/shared/grpc/messages/common.js';
import { filterIn } from '../../src/shared/grpc/messages/filters.js';
import { searchIn } from '../../src/shared/grpc/messages/query.js';
import { pointIdIn, structIn, valueIn, valueOut, vectorIn, vectorsOut } from '../../src/shared/grpc/messages/values.js';
import type { Filter__Output } from '../../src/shared/grpc/generated/qdrant/Filter.js';
import type { Value__Output } from '../../src/shared/grpc/generated/qdrant/Value.js';

const filter = (f: Partial<Filter__Output>): Filter__Output => ({ should: [], must: [], must_not: [], ...f });

describe('payload values', () => {
  it('round-trip JSON, integers apart from floats, 64-bit integers from strings', () => {
    const json = { a: 1, b: 1.5, c: 'x', d: true, e: null, f: [1, { g: [] }], h: { i: { j: -3 } } };
    // What the decoder gives for what valueOut encodes: the oneof's name, and int64 as a string.
    const decode = (v: ReturnType<typeof valueOut>): Value__Output => {
      const [kind, inner] = Object.entries(v)[0] as [NonNullable<Value__Output['kind']>, unknown];
      if (kind === 'integer_value') return { kind, integer_value: String(inner) };
      if (kind === 'list_value') return { kind, list_value: { values: (inner as { values: ReturnType<typeof valueOut>[] }).values.map(decode) } };
      if (kind === 'struct_value') {
        const fields = (inner as { fields: Record<string, ReturnType<typeof valueOut>> }).fields;
        return { kind, struct_value: { fields: Object.fromEntries(Object.entries(fields).map(([k, x]) => [k, decode(x)])) } };
      }
      return { kind, [kind]: inner } as Value__Output;
    };
    expect(valueIn(decode(valueOut(json)))).toEqual(json);
    expect(valueOut(1)).toEqual({ integer_value: 1 });
    expect(valueOut(1.5)).toEqual({ double_value: 1.5 });
    expect(valueIn({ kind: 'integer_value', integer_value: '9007199254740991' })).toBe(9007199254740991);
    expect(structIn({ x: { kind: 'list_value', list_value: { values: [{ kind: 'null_value', null_value: 'NULL_VALUE' }, { kind: 'bool_value', bool_value: false }] } } })).toEqual({
      x: [null, false],
    });
  });
});

describe('filters', () => {
  it('keep zero coordinates that proto3 leaves off the wire', () => {
    const f = filterIn(
      filter({
        must: [
          {
            condition_one_of: 'field',
            field: { key: 'loc', geo_radius: { center: { lat: 51.5 }, radius: 1000 } },
          },
          {
            condition_one_of: 'field',
            field: { key: 'loc', geo_bounding_box: { top_left: { lon: 0, lat: 1 }, bottom_right: { lon: 1 } } },
          },
        ],
      }),
    );
    expect(f).toEqual({
      must: [
        { key: 'loc', geo_radius: { center: { lon: 0, lat: 51.5 }, radius: 1000 } },
        { key: 'loc', geo_bounding_box: { top_left: { lon: 0, lat: 1 }, bottom_right: { lon: 1, lat: 0 } } },
      ],
    });
  });

  it('turn datetime ranges into RFC 3339 strings and drop optional-field markers', () => {
    const f = filterIn(
      filter({
        should: [
          { condition_one_of: 'field', field: { key: 't', datetime_range: { gte: { seconds: '1714557600', nanos: 250_000_000 }, _gte: 'gte' } as never } },
          { condition_one_of: 'field', field: { key: 'n', range: { lt: 3, _lt: 'lt' } as never, values_count: { gte: '2', _gte: 'gte' } as never } },
        ],
        min_should: { conditions: [{ condition_one_of: 'has_id', has_id: { has_id: [{ num: '7' }, { uuid: 'a' }] } }] },
      }),
    );
    expect(f).toEqual({
      should: [
        { key: 't', range: { gte: '2024-05-01T10:00:00.250Z' } },
        { key: 'n', range: { lt: 3 }, values_count: { gte: 2 } },
      ],
      min_should: { conditions: [{ has_id: [7, 'a'] }], min_count: 0 },
    });
  });

  it('keep kinds the filter parser refuses under their own names', () => {
    expect(filterIn(filter({ must: [{ condition_one_of: 'field', field: { key: 'k', match: { match_value: 'text_any', text_any: 'a b' } } }] }))).toEqual({
      must: [{ key: 'k', match: { text_any: 'a b' } }],
    });
  });
});

describe('vectors and ids', () => {
  it('read dense, sparse and the deprecated flat forms', () => {
    expect(vectorIn({ data: [], vector: 'dense', dense: { data: [1, 2] } })).toEqual([1, 2]);
    expect(vectorIn({ data: [], vector: 'sparse', sparse: { indices: [3], values: [0.5] } })).toEqual({ indices: [3], values: [0.5] });
    expect(vectorIn({ data: [0.5, 0.25], indices: { data: [1, 9] } })).toEqual({ indices: [1, 9], values: [0.5, 0.25] });
    expect(vectorIn({ data: [1, 2, 3, 4], vectors_count: 2 })).toEqual([
      [1, 2],
      [3, 4],
    ]);
    // Inference inputs in REST form, for the service to embed (BM25) or refuse by model.
    expect(vectorIn({ data: [], vector: 'document', document: { text: 'x', model: 'm', options: {} } })).toEqual({ text: 'x', model: 'm' });
    // A dense vector's float32 array goes out as it is (the codec writes its bytes, grpc-codec.ts);
    // a sparse one's values and a multivector's deprecated flat form as plain numbers.
    expect(vectorsOut({ a: Float32Array.of(1), s: { indices: Uint32Array.of(2), values: Float32Array.of(3) }, m: [Float32Array.of(4, 5), Float32Array.of(6, 7)] })).toEqual({
      vectors: {
        vectors: {
          a: { dense: { data: Float32Array.of(1) } },
          s: { sparse: { indices: [2], values: [3] } },
          m: { multi_dense: { vectors: [{ data: Float32Array.of(4, 5) }, { data: Float32Array.of(6, 7) }] }, data: [4, 5, 6, 7], vectors_count: 2 },
        },
      },
    });
  });

  it('read ids, refusing a missing one', () => {
    expect(pointIdIn({ num: '0' })).toBe(0);
    expect(pointIdIn({ uuid: 'x' })).toBe('x');
    expect(() => pointIdIn({})).toThrow(/Point id is missing/);
  });

  it('send sparse searches as REST does', () => {
    const r = searchIn({ vector: [0.5], limit: '3', vector_name: 'text', sparse_indices: { data: [42] } });
    expect(r.vector).toEqual({ name: 'text', vector: { indices: [42], values: [0.5] } });
    expect(r.limit).toBe(3);
  });

  it('plain drops the markers of proto3 optional fields', () => {
    expect(plain({ a: 1, _a: 'a', b: '5' }, ['b'])).toEqual({ a: 1, b: 5 });
  });
});
