import { describe, expect, it } from 'vitest';
import { docTokens, indexTerms, phraseMatches, queryTokens, textAnyMatches, textMatches, tokenize } from '../../src/workers/index/tokenizer.js';
import type { TextIndexParams, Tokenizer } from '../../src/shared/types.js';

function params(tokenizer: Tokenizer, over: Partial<TextIndexParams> = {}): TextIndexParams {
  return { tokenizer, min_token_len: null, max_token_len: null, lowercase: true, ...over };
}

const WORD = params('word');
const PREFIX = params('prefix');

describe('tokenize', () => {
  it('word: splits on anything but letters and digits, keeping order and duplicates', () => {
    expect(tokenize('Hello, world! hello-World 42x_y', WORD)).toEqual(['hello', 'world', 'hello', 'world', '42x', 'y']);
  });

  it('word: letters and digits of any script are word characters', () => {
    expect(tokenize('Naïve café — Ünïcödé 東京 ٣٤', WORD)).toEqual(['naïve', 'café', 'ünïcödé', '東京', '٣٤']);
  });

  it('word: an empty or punctuation-only text has no tokens', () => {
    expect(tokenize('', WORD)).toEqual([]);
    expect(tokenize('  ,.;!? -- ', WORD)).toEqual([]);
  });

  it('whitespace: splits on whitespace only, punctuation stays in the token', () => {
    const p = params('whitespace');
    expect(tokenize('Hello, world!\tfoo-bar\n\n baz ', p)).toEqual(['hello,', 'world!', 'foo-bar', 'baz']);
  });

  it('prefix and multilingual tokenize stored text into words like the word tokenizer', () => {
    const text = 'Red-apple PIE, 42 pies';
    expect(tokenize(text, params('prefix'))).toEqual(['red', 'apple', 'pie', '42', 'pies']);
    expect(tokenize(text, params('multilingual'))).toEqual(['red', 'apple', 'pie', '42', 'pies']);
  });

  it('multilingual: Chinese and Japanese text, written without spaces, is split into words', () => {
    const ml = params('multilingual');
    expect(tokenize('我喜欢吃苹果和香蕉', ml)).toEqual(['我', '喜欢', '吃', '苹果', '和', '香蕉']);
    expect(tokenize('北京大学的学生', ml)).toEqual(['北京', '大学', '的', '学生']);
    expect(tokenize('東京都に住んでいます', ml)).toContain('東京');
    // The word tokenizer keeps a run of ideographs as one token.
    expect(tokenize('我喜欢吃苹果和香蕉', WORD)).toEqual(['我喜欢吃苹果和香蕉']);
    expect(textMatches('我喜欢吃苹果和香蕉', '苹果', ml)).toBe(true);
    expect(textMatches('我喜欢吃苹果和香蕉', '苹果', WORD)).toBe(false);
    expect(phraseMatches('我喜欢吃苹果和香蕉', '吃苹果', ml)).toBe(true);
  });

  it('lowercase: false keeps the case, true folds it (beyond ASCII too)', () => {
    expect(tokenize('Apple ÄPFEL', params('word', { lowercase: false }))).toEqual(['Apple', 'ÄPFEL']);
    expect(tokenize('Apple ÄPFEL', WORD)).toEqual(['apple', 'äpfel']);
    expect(tokenize('Apple, ÄPFEL', params('whitespace', { lowercase: false }))).toEqual(['Apple,', 'ÄPFEL']);
  });

  it('min_token_len and max_token_len bound the token length, inclusively', () => {
    const text = 'a bb ccc dddd eeeee';
    expect(tokenize(text, params('word', { min_token_len: 2 }))).toEqual(['bb', 'ccc', 'dddd', 'eeeee']);
    expect(tokenize(text, params('word', { max_token_len: 3 }))).toEqual(['a', 'bb', 'ccc']);
    expect(tokenize(text, params('word', { min_token_len: 2, max_token_len: 4 }))).toEqual(['bb', 'ccc', 'dddd']);
    expect(tokenize(text, params('whitespace', { min_token_len: 4 }))).toEqual(['dddd', 'eeeee']);
  });

  it('token lengths count code points, not UTF-16 units', () => {
    // U+10400 DESERET CAPITAL LETTER LONG I is one letter but two UTF-16 units.
    const text = '\u{10400}\u{10400} ab';
    expect(tokenize(text, params('word', { max_token_len: 2, lowercase: false }))).toEqual(['\u{10400}\u{10400}', 'ab']);
    expect(tokenize(text, params('word', { min_token_len: 3, lowercase: false }))).toEqual([]);
  });

  it('gives the same result when called repeatedly (no regex state leaks between calls)', () => {
    const first = tokenize('one two three', WORD);
    expect(tokenize('one two three', WORD)).toEqual(first);
    expect(tokenize('four', WORD)).toEqual(['four']);
    expect(tokenize('one two three', WORD)).toEqual(['one', 'two', 'three']);
  });
});

describe('indexTerms', () => {
  it('word/whitespace/multilingual: the distinct tokens', () => {
    expect([...indexTerms('red apple, red pie', WORD)].sort()).toEqual(['apple', 'pie', 'red']);
    expect([...indexTerms('red, red', params('whitespace'))].sort()).toEqual(['red', 'red,']);
    expect([...indexTerms('Red Red', params('multilingual'))]).toEqual(['red']);
  });

  it('prefix: every prefix of every token', () => {
    expect([...indexTerms('Apple pie', PREFIX)].sort()).toEqual(['a', 'ap', 'app', 'appl', 'apple', 'p', 'pi', 'pie']);
  });

  it('prefix: prefixes start at min_token_len, and shorter tokens are not indexed', () => {
    const p = params('prefix', { min_token_len: 3 });
    expect([...indexTerms('apple to pie', p)].sort()).toEqual(['app', 'appl', 'apple', 'pie']);
  });

  it('prefix: prefixes are cut at code points, never inside a surrogate pair', () => {
    const terms = [...indexTerms('\u{10400}b\u{10401}', params('prefix', { lowercase: false }))];
    expect(terms).toEqual(['\u{10400}', '\u{10400}b', '\u{10400}b\u{10401}']);
    for (const t of terms) expect(t).not.toMatch(/[\uD800-\uDFFF]/u); // no lone surrogate
  });

  it('an empty text has no terms', () => {
    expect(indexTerms('', PREFIX).size).toBe(0);
    expect(indexTerms(' - ', WORD).size).toBe(0);
  });
});

describe('textMatches', () => {
  it('every query token must be a term of the document, in any order', () => {
    expect(textMatches('The quick brown fox', 'fox quick', WORD)).toBe(true);
    expect(textMatches('The quick brown fox', 'FOX', WORD)).toBe(true);
    expect(textMatches('The quick brown fox', 'fox dog', WORD)).toBe(false);
  });

  it('compares whole tokens, not substrings', () => {
    expect(textMatches('The quick brown fox', 'qui', WORD)).toBe(false);
    expect(textMatches('foxes', 'fox', WORD)).toBe(false);
  });

  it('a query without tokens matches no document (as Qdrant)', () => {
    expect(textMatches('anything', '', WORD)).toBe(false);
    expect(textMatches('', ' ,, ', WORD)).toBe(false);
  });

  it('respects lowercase: false', () => {
    const p = params('word', { lowercase: false });
    expect(textMatches('Quick fox', 'Quick', p)).toBe(true);
    expect(textMatches('Quick fox', 'quick', p)).toBe(false);
  });

  it('prefix tokenizer: a query token matches a document token it is a prefix of', () => {
    expect(textMatches('International business', 'inter bus', PREFIX)).toBe(true);
    expect(textMatches('International business', 'international', PREFIX)).toBe(true);
    expect(textMatches('International business', 'nation', PREFIX)).toBe(false);
    expect(textMatches('International business', 'interstellar', PREFIX)).toBe(false);
  });

  it('whitespace tokenizer: punctuation is part of the tokens to match', () => {
    const p = params('whitespace');
    expect(textMatches('hello, world', 'hello,', p)).toBe(true);
    expect(textMatches('hello, world', 'hello', p)).toBe(false);
  });

  it('query tokens outside the length bounds are ignored, like the document ones', () => {
    const p = params('word', { min_token_len: 3 });
    expect(textMatches('the red apple', 'a red', p)).toBe(true);
    expect(textMatches('the red apple', 'a pear', p)).toBe(false);
  });
});

describe('phraseMatches', () => {
  const doc = 'The quick brown fox jumps over the lazy dog';

  it('the query tokens must appear consecutively and in order', () => {
    expect(phraseMatches(doc, 'quick brown', WORD)).toBe(true);
    expect(phraseMatches(doc, 'Brown, FOX jumps!', WORD)).toBe(true);
    expect(phraseMatches(doc, 'brown quick', WORD)).toBe(false);
    expect(phraseMatches(doc, 'quick fox', WORD)).toBe(false);
  });

  it('matches at the very start and the very end of the document', () => {
    expect(phraseMatches(doc, 'the quick', WORD)).toBe(true);
    expect(phraseMatches(doc, 'lazy dog', WORD)).toBe(true);
    expect(phraseMatches(doc, 'dog', WORD)).toBe(true);
  });

  it('a phrase longer than the document never matches', () => {
    expect(phraseMatches('red apple', 'red apple pie', WORD)).toBe(false);
  });

  it('handles repeated tokens (a failed partial match restarts)', () => {
    expect(phraseMatches('a a a b', 'a a b', WORD)).toBe(true);
    expect(phraseMatches('a b a b c', 'a b c', WORD)).toBe(true);
    expect(phraseMatches('a b a c', 'a b c', WORD)).toBe(false);
  });

  it('an empty phrase matches no document (as Qdrant)', () => {
    expect(phraseMatches(doc, '', WORD)).toBe(false);
    expect(phraseMatches('', '...', WORD)).toBe(false);
  });

  it('a non-empty phrase never matches an empty document', () => {
    expect(phraseMatches('', 'fox', WORD)).toBe(false);
  });

  it('compares whole tokens', () => {
    expect(phraseMatches(doc, 'quick bro', WORD)).toBe(false);
  });

  it('respects lowercase: false', () => {
    const p = params('word', { lowercase: false });
    expect(phraseMatches(doc, 'The quick', p)).toBe(true);
    expect(phraseMatches(doc, 'the quick', p)).toBe(false);
  });

  it('skips tokens outside the length bounds on both sides', () => {
    // With min_token_len 4 'the' and 'fox' are not tokens: 'brown jumps' become adjacent.
    const p = params('word', { min_token_len: 4 });
    expect(phraseMatches(doc, 'brown jumps', p)).toBe(true);
    expect(phraseMatches(doc, 'brown fox jumps', p)).toBe(true);
  });
});

describe('prefix tokenizer with length bounds (Qdrant: documents by prefixes, queries cut to max)', () => {
  const P = params('prefix', { min_token_len: 2, max_token_len: 4 });

  it('a stored word yields its prefixes from min to max code points; shorter words none', () => {
    expect(docTokens('Internationalization a ab', P)).toEqual(['in', 'int', 'inte', 'ab']);
  });

  it('a query word is cut to max_token_len, and dropped when shorter than min_token_len', () => {
    expect(queryTokens('International a bus', P)).toEqual(['inte', 'bus']);
    // 'bus' (3 chars) is a prefix of 'business' within bounds, 'international' cut to 'inte'.
    expect(textMatches('international business', 'internationalisation bus', P)).toBe(true);
    expect(textMatches('international business', 'intx', P)).toBe(false);
    // Only too-short words in the query: no tokens, no match.
    expect(textMatches('a b c', 'a', P)).toBe(false);
  });

  it('a word longer than max_token_len is still found by its short prefixes', () => {
    expect(textMatches('Extraordinary', 'ext', P)).toBe(true);
    expect(textMatches('Extraordinary', 'extraordinary', P)).toBe(true); // cut to 'extr'
  });
});

describe('textAnyMatches', () => {
  it('needs one query token among the document terms', () => {
    expect(textAnyMatches('The quick brown fox', 'dog FOX', WORD)).toBe(true);
    expect(textAnyMatches('The quick brown fox', 'dog cat', WORD)).toBe(false);
    expect(textAnyMatches('International', 'inter xyz', PREFIX)).toBe(true);
  });

  it('a query without tokens matches nothing', () => {
    expect(textAnyMatches('anything', ' ,; ', WORD)).toBe(false);
  });
});
