// The field index settings that change what an index answers: an integer index's `lookup` and
// `range`, a keyword index's `prefix`, a principal key in the planner, and a text index's
// ascii_folding, stop words and stemmer (applied alike to stored and query text).

import { describe, expect, it } from 'vitest';
import { createFieldIndex, planCandidates, type FieldIndex } from '../../src/workers/index/payload-index.js';
import { foldToAscii } from '../../src/workers/index/text-analysis.js';
import { queryTokens, textMatches, tokenize } from '../../src/workers/index/tokenizer.js';
import type { TextIndexParams } from '../../src/shared/types.js';
import { build, cands } from '../helpers/payload-index.js';

const ints = [5, 7, 5, 9, 'five', 12];

describe('integer lookup and range', () => {
  it('both on (the default): matches and ranges from the index, facets counted', () => {
    const i = build({ type: 'integer' }, ints);
    expect(cands(i, { match: { value: 5 } })).toEqual([0, 2, 4]);
    expect(cands(i, { range: { gte: 7, lt: 12 } })).toEqual([1, 3, 4]);
    expect(i.facetValues?.(0)).toEqual([5]);
  });

  it('range: false: matches from value postings, ranges left to the predicate (null), facets counted', () => {
    const i = build({ type: 'integer', params: { type: 'integer', range: false } }, ints);
    expect(cands(i, { match: { value: 5 } })).toEqual([0, 2, 4]);
    expect(cands(i, { match: { any: [7, 12] } })).toEqual([1, 4, 5]);
    expect(cands(i, { match: { value: 5.5 } })).toEqual([4]);
    expect(cands(i, { range: { gte: 7 } })).toBeNull();
    expect(i.facetValues?.(3)).toEqual([9]);
    i.remove(0);
    expect(cands(i, { match: { value: 5 } })).toEqual([2, 4]);
  });

  it('lookup: false: ranges from the column, matches left to the predicate, no facets', () => {
    const i = build({ type: 'integer', params: { type: 'integer', lookup: false } }, ints);
    expect(cands(i, { range: { gt: 5 } })).toEqual([1, 3, 4, 5]);
    expect(cands(i, { match: { value: 5 } })).toBeNull();
    expect(i.facetValues).toBeUndefined();
  });
});

describe('keyword prefix', () => {
  const rows = ['apple', 'apricot', 'banana', 'app', ['x', 'appendix'], 3];
  it('prefix: true serves prefix matches from the keys', () => {
    const i = build({ type: 'keyword', params: { type: 'keyword', prefix: true } }, rows);
    expect(cands(i, { match: { prefix: 'app' } })).toEqual([0, 3, 4, 5]);
    expect(cands(i, { match: { prefix: 'ap' } })).toEqual([0, 1, 3, 4, 5]);
    expect(cands(i, { match: { prefix: 'z' } })).toEqual([5]);
  });
  it('without it, prefix matches are left to the predicate', () => {
    expect(cands(build({ type: 'keyword' }, rows), { match: { prefix: 'app' } })).toBeNull();
  });
});

describe('a principal key in the planner', () => {
  const indexes = new Map<string, FieldIndex>();
  const tenant = createFieldIndex({ type: 'keyword', params: { type: 'keyword' } });
  const day = createFieldIndex({ type: 'integer', params: { type: 'integer', is_principal: true } });
  ['a', 'a', 'b', 'a'].forEach((v, s) => tenant.add(s, [v]));
  [1, 2, 2, 2].forEach((v, s) => day.add(s, [v]));
  indexes.set('tenant', tenant);
  indexes.set('day', day);
  const plan = (must: object[]) => [...(planCandidates({ must } as never, indexes, () => new Set()) ?? [])].sort();

  it("answers alone: its index's set, the other conditions left to the predicate", () => {
    expect(plan([{ key: 'tenant', match: { value: 'a' } }, { key: 'day', match: { value: 2 } }])).toEqual([1, 2, 3]);
  });
  it('without one, the indexed conditions intersect', () => {
    day.schema.params!['is_principal'] = false;
    expect(plan([{ key: 'tenant', match: { value: 'a' } }, { key: 'day', match: { value: 2 } }])).toEqual([1, 3]);
  });
});

describe('text analysis', () => {
  const p = (over: Partial<TextIndexParams>): TextIndexParams => ({ tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true, ...over });

  it('ascii_folding: accents dropped, undecomposed letters spelled out', () => {
    expect(foldToAscii('ação')).toBe('acao');
    expect(foldToAscii('Straße Øre Łódź')).toBe('Strasse Ore Lodz');
    expect(tokenize('Crème Brûlée', p({ ascii_folding: true }))).toEqual(['creme', 'brulee']);
    expect(textMatches('Crème brûlée', 'creme', p({ ascii_folding: true }))).toBe(true);
    expect(textMatches('Crème brûlée', 'creme', p({}))).toBe(false);
  });

  it('stop words: a language list and custom words leave both stored and query text', () => {
    const sp = p({ stopwords: { languages: ['english'], custom: ['Quiver'] } });
    expect(tokenize('The cat and the quiver of arrows', sp)).toEqual(['cat', 'arrows']);
    expect(queryTokens('the', sp)).toEqual([]);
    expect(textMatches('the cat', 'the', sp)).toBe(false);
    expect(textMatches('a cat sat', 'the cat', sp)).toBe(true);
  });

  it('length bounds apply to the word as indexed: after stemming', () => {
    expect(tokenize('running runs', p({ stemmer: 'english', max_token_len: 3 }))).toEqual(['run', 'run']);
    expect(tokenize('running runs', p({ stemmer: 'english', min_token_len: 4 }))).toEqual([]);
    // Custom stop words compare as the words are: lower-cased only where the index lower-cases.
    expect(tokenize('Quiver quiver', p({ lowercase: false, stopwords: { languages: [], custom: ['quiver'] } }))).toEqual(['Quiver']);
  });

  it('stemmer: stored and query words meet at their stem', () => {
    const sp = p({ stemmer: 'english' });
    expect(tokenize('running runs ran', sp)).toEqual(['run', 'run', 'ran']);
    expect(textMatches('She was running home', 'runs', sp)).toBe(true);
    expect(textMatches('She was running home', 'runs', p({}))).toBe(false);
    expect(tokenize('les chevaux mangeaient', p({ stemmer: 'french' }))).toEqual(['le', 'cheval', 'mang']);
  });
});
