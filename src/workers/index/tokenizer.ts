// Tokenizers of full-text indexes, as Qdrant defines them.
//
// Words: `word` and `prefix` split on anything that is not a letter or digit of any script
// (Rust's char::is_alphanumeric), `whitespace` on Unicode white space, and `multilingual` by
// ICU's word segmentation (Intl.Segmenter), which splits Chinese and Japanese text, written
// without spaces, into dictionary words as Qdrant's multilingual tokenizer does. Each word is
// lowercased (when asked) and must be min_token_len..max_token_len code points long.
// Stored text and query text are tokenized alike, except with the `prefix` tokenizer: a stored
// word stands for each of its prefixes from min_token_len up to max_token_len code points (a
// longer word is kept by its prefixes only), and a query word is cut to max_token_len and must
// equal one of them. Words go through ascii_folding, stop words and stemming where the index asks
// for them (text-analysis.ts), and the length bounds apply to what comes out. Matching: `text` needs every query token, `text_any` one of them, `phrase`
// the tokens consecutive and in order; a query without tokens matches nothing.

import type { TextIndexParams } from '../../shared/types.js';
import { analyse, analyses } from './text-analysis.js';

const WORD = /[\p{Alphabetic}\p{N}]+/gu;
const WHITESPACE = /[^\p{White_Space}]+/gu;

// Built once: a segmenter per call would cost more than the segmentation.
// Made at the first multilingual text: constructing one loads ICU's word-break data, ~12 ms of
// each worker's CPU at start (measured, fresh import of this module 13 ms against 1 ms).
let segmenter: Intl.Segmenter | null = null;

function segmentWords(text: string): string[] {
  const out: string[] = [];
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const s of segmenter.segment(text)) if (s.isWordLike === true) out.push(s.segment);
  return out;
}

/** The text's words as the tokenizer cuts them, as written (`prefix` cuts as `word`). */
export function splitWords(text: string, tokenizer: TextIndexParams['tokenizer']): string[] {
  return tokenizer === 'multilingual' ? segmentWords(text) : (text.match(tokenizer === 'whitespace' ? WHITESPACE : WORD) ?? []);
}

function words(text: string, p: TextIndexParams): string[] {
  const raw = splitWords(text, p.tokenizer);
  return p.lowercase ? raw.map((w) => w.toLowerCase()) : raw;
}

/** A word's length in code points (the unit of min_token_len and max_token_len). */
export const codePoints = (t: string): number => {
  let n = 0;
  for (const _ of t) n++;
  return n;
};

/**
 * Words of a text, in order (duplicates kept), within the length bounds. For the prefix
 * tokenizer only the lower bound applies here: a longer word still yields its short prefixes.
 */
export function tokenize(text: string, p: TextIndexParams): string[] {
  const max = p.tokenizer === 'prefix' ? null : p.max_token_len;
  // The bounds apply to the word as indexed: after folding, stop words and stemming (Qdrant's order).
  const ws = analyses(p) ? analyse(words(text, p), p) : words(text, p);
  return ws.filter((t) => {
    const n = codePoints(t);
    return (p.min_token_len === null || n >= p.min_token_len) && (max === null || n <= max);
  });
}

/** The tokens a stored text is indexed under, in order: for `prefix`, each word's prefixes. */
export function docTokens(text: string, p: TextIndexParams): string[] {
  const ws = tokenize(text, p);
  if (p.tokenizer !== 'prefix') return ws;
  const out: string[] = [];
  const min = Math.max(1, p.min_token_len ?? 1);
  const max = p.max_token_len ?? Infinity;
  for (const w of ws) {
    const chars = [...w];
    const last = Math.min(chars.length, max);
    for (let i = min; i <= last; i++) out.push(chars.slice(0, i).join(''));
  }
  return out;
}

/** The tokens of a query. For `prefix`: each word cut to max_token_len, no prefixes added. */
export function queryTokens(text: string, p: TextIndexParams): string[] {
  const ws = tokenize(text, p);
  if (p.tokenizer !== 'prefix' || p.max_token_len === null) return ws;
  const max = p.max_token_len;
  return ws.map((w) => [...w].slice(0, max).join(''));
}

/** What an indexed document stores: its distinct tokens. */
export function indexTerms(text: string, p: TextIndexParams): Set<string> {
  return new Set(docTokens(text, p));
}

/** `text`: every query token is a term of the document. */
export function textMatches(doc: string, query: string, p: TextIndexParams): boolean {
  const q = queryTokens(query, p);
  if (q.length === 0) return false;
  const terms = indexTerms(doc, p);
  return q.every((t) => terms.has(t));
}

/** `text_any`: at least one query token is a term of the document. */
export function textAnyMatches(doc: string, query: string, p: TextIndexParams): boolean {
  const q = queryTokens(query, p);
  if (q.length === 0) return false;
  const terms = indexTerms(doc, p);
  return q.some((t) => terms.has(t));
}

/** `phrase`: the phrase's tokens (tokenized as stored text) appear consecutively, in order. */
export function phraseMatches(doc: string, query: string, p: TextIndexParams): boolean {
  const d = docTokens(doc, p);
  const q = docTokens(query, p);
  if (q.length === 0) return false;
  outer: for (let i = 0; i + q.length <= d.length; i++) {
    for (let j = 0; j < q.length; j++) if (d[i + j] !== q[j]) continue outer;
    return true;
  }
  return false;
}
