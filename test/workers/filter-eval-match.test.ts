// The filter evaluator's match conditions: exact values, any and except, and text, text_any,
// phrase and prefix matches with and without a full-text index.

import { describe, expect, it } from 'vitest';
import type { TextIndexParams } from '../../src/shared/types.js';
import { matches, select, table, type Point } from '../helpers/filter-eval.js';

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
    [{ a: [{ b: 'y' }, { b: 'x' }] }, false], // a key step finds nothing in an array, as Qdrant's (a[].b does)
    [{ a: [{ c: 'x' }] }, false],
    [{ a: 'x' }, false],
    [{ 'a.b': 'x' }, false], // a dot is a path separator, not part of a key
    [{ a: null }, false],
    [{}, false],
  ]);

  table('value on a[].b', { key: 'a[].b', match: { value: 'x' } }, [
    [{ a: [{ b: 'y' }, { b: 'x' }] }, true],
    [{ a: [{ b: ['x'] }] }, true],
    [{ a: { b: 'x' } }, false], // [] of an object is nothing
  ]);

  table('value on a.b[].c', { key: 'a.b[].c', match: { value: 2 } }, [
    [{ a: { b: [{ c: 1 }, { c: 2 }] } }, true],
    [{ a: { b: [{ c: 1 }, { c: 3 }] } }, false],
    [{ a: { b: [{ c: [5, 2] }] } }, true],
    [{ a: [{ b: [{ c: 9 }] }, { b: [{ c: 2 }] }] }, false],
    [{ a: { b: [] } }, false],
    [{ a: {} }, false],
  ]);

  table('value on a deep path through nested arrays', { key: 'country[].cities[].name', match: { value: 'Munich' } }, [
    [{ country: [{ cities: [{ name: 'Tokyo' }] }, { cities: [{ name: 'Munich' }] }] }, true],
    [{ country: [{ cities: [{ name: 'Berlin' }] }] }, false],
    [{ country: { cities: [{ name: 'Munich' }] } }, false],
  ]);

  table('a deep path without [] does not enter arrays', { key: 'country.cities.name', match: { value: 'Munich' } }, [
    [{ country: { cities: [{ name: 'Berlin' }, { name: 'Munich' }] } }, false],
    [{ country: { cities: { name: 'Munich' } } }, true],
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
    // a.b finds nothing in an array: as a missing key.
    [{ a: [{ b: 1 }, { b: 1 }] }, true],
    [{ a: [{ b: 1 }, { b: 3 }] }, true],
  ]);

  table('except on a path through an array', { key: 'a[].b', match: { except: [1] } }, [
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
