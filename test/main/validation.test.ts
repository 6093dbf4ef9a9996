// compileCheck in-process: which failures are format errors (400) and which validation errors
// (422), and how the 422 names the field, the value and the rule.

import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { collectionNameError, compileCheck } from '../../src/shared/validation.js';
import { parseBound } from '../../src/shared/schemas/common.js';
import { QuiverError } from '../../src/shared/errors.js';

function outcome(schema: Parameters<typeof compileCheck>[0], value: unknown, surface: Parameters<typeof compileCheck>[1] = 'body'): string {
  const r = compileCheck(schema, surface).check(value);
  if (r.error === undefined) return 'ok';
  expect(r.error).toBeInstanceOf(QuiverError);
  return `${r.error.code}: ${r.error.message}`;
}

describe('compileCheck', () => {
  const S = Type.Object({
    n: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    u: Type.Optional(Type.Integer({ minimum: 0 })),
    f: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    s: Type.Optional(Type.String({ maxLength: 3 })),
    list: Type.Optional(Type.Array(Type.Object({ k: Type.Integer({ minimum: 2, maximum: 5 }) }), { maxItems: 2 })),
    map: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 10 }))),
    // A property that happens to be called like a keyword is a field, not a rule.
    minimum: Type.Optional(Type.Integer({ minimum: 3 })),
    path: Type.Optional(parseBound(Type.String({ minLength: 1 }))),
  });

  it('passes a good value through', () => {
    expect(outcome(S, { n: 1, u: 0, f: 0.5, s: 'abc', list: [{ k: 2 }], map: { a: 10 }, minimum: 3, path: 'a' })).toBe('ok');
  });

  it('a value rule broken inside a union of a number and null is a 422', () => {
    expect(outcome(S, { n: 0 })).toBe('Unprocessable: Validation error in JSON body: [n: value 0 invalid, must be 1 or larger]');
  });

  it('an integer under a positive minimum but negative does not read: 400', () => {
    expect(outcome(S, { n: -1 })).toMatch(/^BadInput: Format error in JSON body: body\.n: /);
  });

  it('minimum 0 on an integer is its type (unsigned): 400; on a float it is a rule: 422', () => {
    expect(outcome(S, { u: -1 })).toMatch(/^BadInput: Format error in JSON body: body\.u: /);
    // A float field prints as serde_json prints an f64: whole numbers keep their `.0`.
    expect(outcome(S, { f: -0.5 })).toBe('Unprocessable: Validation error in JSON body: [f: value -0.5 invalid, must be from 0.0 to 1.0]');
    expect(outcome(S, { f: 2 })).toBe('Unprocessable: Validation error in JSON body: [f: value 2.0 invalid, must be from 0.0 to 1.0]');
  });

  it('lengths: strings count characters, arrays items (their value left out)', () => {
    expect(outcome(S, { s: 'abcd' })).toBe('Unprocessable: Validation error in JSON body: [s: value "abcd" invalid, must be at most 3 characters]');
    expect(outcome(S, { list: [{ k: 2 }, { k: 2 }, { k: 2 }] })).toBe('Unprocessable: Validation error in JSON body: [list: must be at most 2 items]');
  });

  it('names array elements with [i] and map entries by key', () => {
    expect(outcome(S, { list: [{ k: 2 }, { k: 9 }] })).toBe('Unprocessable: Validation error in JSON body: [list[1].k: value 9 invalid, must be from 2 to 5]');
    expect(outcome(S, { map: { big: 10, small: 1 } })).toBe('Unprocessable: Validation error in JSON body: [map.small: value 1 invalid, must be 10 or larger]');
  });

  it('a property named like a keyword is checked, not stripped', () => {
    expect(outcome(S, { minimum: 1 })).toBe('Unprocessable: Validation error in JSON body: [minimum: value 1 invalid, must be 3 or larger]');
    expect(outcome(S, { minimum: 'x' })).toMatch(/^BadInput: Format error in JSON body: body\.minimum: /);
  });

  it('a format error anywhere wins over value rules elsewhere', () => {
    expect(outcome(S, { n: 0, s: 5 })).toMatch(/^BadInput: Format error in JSON body: body\.s: /);
  });

  it('a parse-bound schema reads its bounds as its type: 400', () => {
    expect(outcome(S, { path: '' })).toMatch(/^BadInput: Format error in JSON body: body\.path: /);
  });

  it('query strings are converted first and labelled as query parameters', () => {
    const Q = Type.Object({ timeout: Type.Optional(Type.Integer({ minimum: 1 })) });
    expect(compileCheck(Q, 'querystring').check({ timeout: '5' })).toEqual({ value: { timeout: 5 } });
    expect(outcome(Q, { timeout: '0' }, 'querystring')).toBe('Unprocessable: Validation error in query parameters: [timeout: value 0 invalid, must be 1 or larger]');
    expect(outcome(Q, { timeout: 'soon' }, 'querystring')).toBe('BadInput: Deserialize error in query parameters: timeout: must be integer');
  });

  it('path parameters use Qdrant\'s names; gRPC says "in body" with the proto field name', () => {
    const P = Type.Object({ collection_name: Type.String({ maxLength: 255 }) });
    const long = 'y'.repeat(256);
    expect(outcome(P, { collection_name: long }, 'params')).toBe(
      `Unprocessable: Validation error in path parameters: [name: value "${long}" invalid, must be at most 255 characters]`,
    );
    expect(outcome(P, { collection_name: long }, 'grpc')).toBe(
      `Unprocessable: Validation error in body: [collection_name: value "${long}" invalid, must be at most 255 characters]`,
    );
  });

  it('without qdrant422 every failure is a 400 (Quiver\'s own endpoints)', () => {
    const r = compileCheck(S, 'body', { qdrant422: false }).check({ n: 0 });
    expect(r.error?.code).toBe('BadInput');
    expect(r.error?.message).toMatch(/^Format error in JSON body: body\.n: /);
  });
});

describe('collectionNameError', () => {
  it('names the first forbidden character Qdrant looks for, as a 422', () => {
    expect(collectionNameError('fine-name_1', 'params')).toBeUndefined();
    const e = collectionNameError('a*b/c', 'params');
    expect(e?.code).toBe('Unprocessable');
    // Qdrant looks for characters in its own order ('/' before '*'), not by position.
    expect(e?.message).toBe('Validation error in path parameters: [name: collection name cannot contain "/" char]');
    expect(collectionNameError('a:b', 'grpc')?.message).toBe('Validation error in body: [collection_name: collection name cannot contain ":" char]');
  });
});
