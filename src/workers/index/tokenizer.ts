// Tokenizers of full-text indexes, as Qdrant names them. The same function tokenizes stored
// text and query text, so a text match compares like with like.

import type { TextIndexParams } from '../../shared/types.js';

const WORD = /[\p{L}\p{N}]+/gu;
const WHITESPACE = /\S+/gu;

function keep(t: string, p: TextIndexParams): boolean {
  const n = [...t].length;
  return (p.min_token_len === null || n >= p.min_token_len) && (p.max_token_len === null || n <= p.max_token_len);
}

/** Tokens of a text, in order (duplicates kept, for phrase matching). */
export function tokenize(text: string, p: TextIndexParams): string[] {
  const src = p.lowercase ? text.toLowerCase() : text;
  const re = p.tokenizer === 'whitespace' ? WHITESPACE : WORD;
  return (src.match(re) ?? []).filter((t) => keep(t, p));
}

/** What an indexed document stores: its tokens and, for the prefix tokenizer, every prefix of each. */
export function indexTerms(text: string, p: TextIndexParams): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text, p)) {
    if (p.tokenizer === 'prefix') {
      const chars = [...t];
      const min = Math.max(1, p.min_token_len ?? 1);
      for (let i = min; i <= chars.length; i++) out.add(chars.slice(0, i).join(''));
    } else {
      out.add(t);
    }
  }
  return out;
}

/** Qdrant's text match with an index: every query token is a term of the document. */
export function textMatches(doc: string, query: string, p: TextIndexParams): boolean {
  const terms = indexTerms(doc, p);
  return tokenize(query, p).every((t) => terms.has(t));
}

/** Phrase match: the query's tokens appear consecutively, in order. */
export function phraseMatches(doc: string, query: string, p: TextIndexParams): boolean {
  const d = tokenize(doc, p);
  const q = tokenize(query, p);
  if (q.length === 0) return true;
  outer: for (let i = 0; i + q.length <= d.length; i++) {
    for (let j = 0; j < q.length; j++) if (d[i + j] !== q[j]) continue outer;
    return true;
  }
  return false;
}
