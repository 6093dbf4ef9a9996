// The full-text payload index: an inverted index from the tokenizer's terms (see tokenizer.ts,
// with the index's params) to the slots whose strings hold them. A text or phrase query becomes
// the intersection of its tokens' postings, text_any their union, so candidates are a superset
// of the matches (phrase order is left to the filter predicate).

import type { FieldCondition } from '../../shared/filter.js';
import type { FieldIndexSchema, JsonValue, TextIndexParams } from '../../shared/types.js';
import { intersect, Postings, TypedIndex, union, type FieldIndex } from './field-index.js';
import { docTokens, indexTerms, queryTokens } from './tokenizer.js';

/** Full-text inverted index: term -> slots. */
export class TextIndex extends TypedIndex implements FieldIndex {
  readonly schema: FieldIndexSchema;
  readonly params: TextIndexParams;
  readonly #postings = new Postings<string>();

  constructor(schema: FieldIndexSchema, params: TextIndexParams) {
    super();
    this.schema = schema;
    this.params = params;
  }

  get points(): number {
    return this.#postings.slots;
  }

  get bytes(): number {
    return this.#postings.bytes;
  }

  add(slot: number, values: readonly JsonValue[]): void {
    const terms = new Set<string>();
    let accepted = 0;
    for (const v of values) {
      if (typeof v !== 'string') continue;
      accepted++;
      for (const t of indexTerms(v, this.params)) terms.add(t);
    }
    this.noteOthers(slot, values, accepted);
    this.#postings.add(slot, terms);
  }

  remove(slot: number): void {
    this.#postings.remove(slot);
    this.forgetOthers(slot);
  }

  candidates(cond: FieldCondition): Set<number> | null {
    const m = cond.match;
    if (m === undefined) return null;
    const postings = (tokens: string[]): Set<number>[] => [...new Set(tokens)].map((t) => this.#postings.get(t) ?? new Set<number>());
    // A query without tokens matches nothing (as Qdrant): the empty set, plus the other-typed slots.
    if ('text' in m) return this.withOthers(intersect(postings(queryTokens(m.text, this.params))));
    if ('text_any' in m) return this.withOthers(union(postings(queryTokens(m.text_any, this.params))));
    if ('phrase' in m) return this.withOthers(intersect(postings(docTokens(m.phrase, this.params))));
    return null;
  }
}
