// The full-text payload index (text, text_any and phrase candidates under each tokenizer
// setting), and the fresh candidate sets every index kind returns.

import { describe, expect, it } from 'vitest';
import type { FieldIndexSchema, JsonValue } from '../../src/shared/types.js';
import { add, box, build, cands, expectCovers, text, type Cond } from '../helpers/payload-index.js';

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
