// The exact-value payload index (keyword, uuid, bool): value -> slot sets, through one key type
// per index (createFieldIndex in payload-index.ts picks the conversion and the facet mapping).
// Invariant: a slot is posted under exactly the converted values of its current payload.

import type { FieldCondition } from '../../shared/filter.js';
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
