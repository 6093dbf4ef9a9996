// BM25 documents (docs/query.md section 5): a `Document` ({text, model: "qdrant/bm25", options})
// where a sparse vector goes, in upserts and queries, becomes the sparse vector Qdrant's server
// computes for it. Words are cut by the tokenizer, then ASCII-folded (when asked), lower-cased,
// stop words dropped, stemmed and bounded in length; each word's index is its murmur3 hash
// (x86, 32-bit, seed 0, of its UTF-8 bytes) read as a signed 32-bit integer, made positive. A
// document's value for a word is BM25's term weight, tf (k + 1) / (tf + k (1 - b + b len / avg_len));
// a query's is 1 per distinct word. The idf half of BM25 is the collection's: a sparse vector
// with `modifier: idf`.

import murmurhash from 'murmurhash';
import { QuiverError } from '../../shared/errors.js';
import { STEMMER_LANGUAGES, STOPWORD_LANGUAGES } from '../../shared/text-languages.js';
import { TOKENIZERS, type SparseVector, type Tokenizer } from '../../shared/types.js';
import { foldToAscii, stemmer, stopList } from '../index/text-analysis.js';
import { codePoints, splitWords } from '../index/tokenizer.js';

/** Qdrant's languages for stop words and for stemmers: those Quiver lacks data for are refused. */
const QDRANT_STOPWORD_LANGUAGES = [
  'arabic', 'azerbaijani', 'basque', 'bengali', 'catalan', 'chinese', 'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'greek', 'hebrew',
  'hinglish', 'hungarian', 'indonesian', 'italian', 'japanese', 'kazakh', 'nepali', 'norwegian', 'portuguese', 'romanian', 'russian', 'slovene',
  'spanish', 'swedish', 'tajik', 'turkish',
];
const QDRANT_STEMMER_LANGUAGES = [...STEMMER_LANGUAGES, 'greek'];

const MODELS = ['qdrant/bm25', 'bm25'];

/** An inference input: a Document, or an image or object (which BM25 cannot read). */
export function isInferenceInput(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && 'model' in v && ('text' in v || 'image' in v || 'object' in v);
}

interface Bm25Params {
  k: number;
  b: number;
  avgLen: number;
  tokenizer: Tokenizer;
  lowercase: boolean;
  asciiFolding: boolean;
  stopwords: { languages: string[]; custom: Set<string> };
  stemmer: string | null;
  minLen: number | null;
  maxLen: number | null;
}

const bad = (msg: string): never => {
  throw QuiverError.badInput(`Wrong input: ${msg}`);
};

function num(o: Record<string, unknown>, key: string, dflt: number): number {
  const v = o[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v)) return bad(`Invalid BM25 config: ${key} must be a number`);
  return v;
}

function length(o: Record<string, unknown>, key: string): number | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return bad(`Invalid BM25 config: ${key} must be an unsigned integer`);
  return v;
}

function stopwordsOf(o: Record<string, unknown>, language: string): Bm25Params['stopwords'] {
  const raw = o.stopwords;
  let languages: string[];
  let custom: string[] = [];
  if (raw === undefined || raw === null) languages = QDRANT_STOPWORD_LANGUAGES.includes(language) ? [language] : [];
  else if (typeof raw === 'string') languages = [raw];
  else if (typeof raw === 'object' && !Array.isArray(raw)) {
    const s = raw as { languages?: unknown; custom?: unknown };
    languages = Array.isArray(s.languages) ? s.languages.map(String) : [];
    custom = Array.isArray(s.custom) ? s.custom.map(String) : [];
  } else return bad('Invalid BM25 config: stopwords must be a language or {languages, custom}');
  for (const l of languages) {
    if (!STOPWORD_LANGUAGES.includes(l)) bad(`no stop-word list for '${l}' in Quiver (it has: ${STOPWORD_LANGUAGES.join(', ')}); give the words in options.stopwords.custom`);
  }
  // Custom words as the words will be: lower-cased where they are (Qdrant's filter).
  return { languages, custom: new Set(o.lowercase === false ? custom : custom.map((w) => w.toLowerCase())) };
}

function stemmerOf(o: Record<string, unknown>, language: string): string | null {
  const raw = o.stemmer;
  let l: string | null;
  if (raw === undefined || raw === null) l = QDRANT_STEMMER_LANGUAGES.includes(language) ? language : null;
  else {
    const s = raw as { type?: unknown; language?: unknown };
    if (s.type === 'none') l = null;
    else if (s.type === 'snowball' && typeof s.language === 'string') l = s.language;
    else return bad("Invalid BM25 config: stemmer must be {type: 'snowball', language} or {type: 'none'}");
  }
  if (l !== null && !STEMMER_LANGUAGES.includes(l)) bad(`no Snowball stemmer for '${l}' in Quiver (it has: ${STEMMER_LANGUAGES.join(', ')})`);
  return l;
}

function paramsOf(options: unknown): Bm25Params {
  const o = (options ?? {}) as Record<string, unknown>;
  if (typeof o !== 'object' || Array.isArray(o)) return bad('Invalid BM25 config: options must be an object');
  // A language Qdrant has no lists for turns stop words and stemming off (its "none").
  const language = typeof o.language === 'string' ? o.language : 'english';
  const tokenizer = o.tokenizer ?? 'word';
  if (!TOKENIZERS.includes(tokenizer as Tokenizer)) bad(`Invalid BM25 config: unknown tokenizer ${JSON.stringify(tokenizer)}`);
  return {
    k: num(o, 'k', 1.2),
    b: num(o, 'b', 0.75),
    avgLen: num(o, 'avg_len', 256),
    tokenizer: tokenizer as Tokenizer,
    lowercase: o.lowercase !== false,
    asciiFolding: o.ascii_folding === true,
    stopwords: stopwordsOf(o, language),
    stemmer: stemmerOf(o, language),
    minLen: length(o, 'min_token_len'),
    maxLen: length(o, 'max_token_len'),
  };
}

/** The document's words after every step, in order, repeats kept. */
function tokens(text: string, p: Bm25Params): string[] {
  const lists = p.stopwords.languages.map(stopList);
  const stem = p.stemmer === null ? null : stemmer(p.stemmer);
  const out: string[] = [];
  for (let w of splitWords(text, p.tokenizer)) {
    if (w === '') continue;
    if (p.asciiFolding) w = foldToAscii(w);
    if (p.lowercase) w = w.toLowerCase();
    if (p.stopwords.custom.has(w) || lists.some((l) => l.has(w))) continue;
    if (stem !== null) w = stem(w);
    const n = codePoints(w);
    if ((p.minLen !== null && n < p.minLen) || (p.maxLen !== null && n > p.maxLen)) continue;
    out.push(w);
  }
  return out;
}

/** A word's index: its murmur3 hash as a signed 32-bit integer, made positive. */
export function wordIndex(word: string): number {
  return Math.abs(murmurhash.v3(word, 0) | 0);
}

/**
 * The sparse vector of an inference input: a document's BM25 weights, or for a query 1 per
 * distinct word. A model other than BM25, or an image or object, is refused by name.
 */
export function embedDocument(input: Record<string, unknown>, as: 'document' | 'query'): SparseVector {
  const model = typeof input.model === 'string' ? input.model : '';
  if (!MODELS.includes(model.toLowerCase())) {
    return bad(`model '${model}' is not supported by Quiver: it computes BM25 on the server (model "qdrant/bm25"); send vectors computed elsewhere for other models`);
  }
  if (typeof input.text !== 'string') return bad(`Only text input is supported for ${model}.`);
  const p = paramsOf(input.options);
  const counts = new Map<number, number>();
  const words = tokens(input.text, p);
  for (const w of words) {
    const i = wordIndex(w);
    counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  const indices = [...counts.keys()].sort((a, b) => a - b);
  if (as === 'query') return { indices, values: indices.map(() => 1) };
  const norm = p.k * (1 - p.b + (p.b * words.length) / p.avgLen);
  return { indices, values: indices.map((i) => Math.fround((counts.get(i)! * (p.k + 1)) / (counts.get(i)! + norm))) };
}
