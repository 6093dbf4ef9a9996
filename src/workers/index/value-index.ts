// The exact-value payload index (keyword, uuid, bool): value -> slot sets, through one key type
// per index (createFieldIndex in payload-index.ts picks the conversion and the facet mapping).
// Invariant: a slot is posted under exactly the converted values of its current payload.

import type { FieldCondition, Match } from '../../shared/filter.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { FieldIndexSchema, JsonValue } from '../../shared/types.js';
import { distinctFacets, Postings, TypedIndex, union, type FieldIndex } from './field-index.js';

/** Exact-value index: keyword, uuid, bool. */
export class ValueIndex<K extends string> extends TypedIndex implements FieldIndex {
  readonly schema: FieldIndexSchema;
  readonly #convert: (v: JsonValue) => K | undefined;
  readonly #facet: (k: K) => FacetValue | undefined;
  readonly #postings = new Postings<K>();

  constructor(schema: FieldIndexSchema, convert: (v: JsonValue) => K | undefined, facet: (k: K) => FacetValue | undefined) {
    super();
    this.schema = schema;
    this.#convert = convert;
    this.#facet = facet;
  }

  facetValues(slot: number): FacetValue[] {
    return distinctFacets(this.#postings.keysOf(slot), this.#facet);
  }

  get points(): number {
    return this.#postings.slots;
  }

  get bytes(): number {
    return this.#postings.bytes;
  }

  add(slot: number, values: readonly JsonValue[]): void {
    const converted = values.map(this.#convert).filter((k): k is K => k !== undefined);
    this.noteOthers(slot, values, converted.length);
    this.#postings.add(slot, converted);
  }

  remove(slot: number): void {
    this.#postings.remove(slot);
    this.forgetOthers(slot);
  }

  /**
   * `value`, and `any` of strings and numbers: the predicate compares each leaf with ===, and a
   * slot is posted under the converted leaves. A value the conversion takes is only === to leaves
   * of its own type, which convert to its key (the conversions are one-to-one), so the slot
   * matches exactly when it is posted under that key. A value it does not take: null.
   */
  matcher(match: Match): ((slot: number) => boolean) | null {
    const keys: K[] = [];
    if ('value' in match) {
      const k = this.#convert(match.value);
      if (k === undefined) return null;
      keys.push(k);
    } else if ('any' in match) {
      // The predicate's `any` takes string and number leaves only (a boolean never matches).
      for (const v of match.any) {
        const k = typeof v === 'string' || typeof v === 'number' ? this.#convert(v) : undefined;
        if (k === undefined) return null;
        keys.push(k);
      }
    } else return null;
    const postings = this.#postings;
    if (keys.length === 1) {
      const k = keys[0]!;
      return (slot) => postings.get(k)?.has(slot) === true;
    }
    return (slot) => keys.some((k) => postings.get(k)?.has(slot) === true);
  }

  candidates(cond: FieldCondition): Set<number> | null {
    const m = cond.match;
    if (m === undefined) return null;
    if ('value' in m) {
      const k = this.#convert(m.value);
      return this.withOthers(k === undefined ? new Set() : new Set(this.#postings.get(k)));
    }
    if ('any' in m) {
      return this.withOthers(union(m.any.map((v) => this.#convert(v)).map((k) => (k === undefined ? undefined : this.#postings.get(k)))));
    }
    // A keyword index made with `prefix: true` serves prefix matches: every key starting so.
    if ('prefix' in m && this.schema.params?.['prefix'] === true) {
      const p = m.prefix;
      return this.withOthers(union(this.#postings.keysWhere((k) => k.startsWith(p)).map((k) => this.#postings.get(k))));
    }
    return null;
  }
}
