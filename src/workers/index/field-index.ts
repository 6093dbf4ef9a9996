// What every payload field index is (the FieldIndex interface) and the parts the per-kind indexes
// (value-index, range-index, geo-index, text-index) are built from: the slot-set algebra, the
// bookkeeping of other-typed slots, key -> slot postings and the memory-estimate sizes.
//
// Invariant: candidate sets handed out are fresh (never an index's own postings), and include
// every slot holding a value of another type than the index takes, so candidates stay a
// superset of the matches.

import type { FieldCondition, Match } from '../../shared/filter.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { FieldIndexSchema, JsonValue } from '../../shared/types.js';

export interface FieldIndex {
  readonly schema: FieldIndexSchema;
  /** Slots with at least one indexed value. */
  readonly points: number;
  /** Estimated bytes of the index's structures (see estimateBytes), for memory reporting. */
  readonly bytes: number;
  add(slot: number, values: readonly JsonValue[]): void;
  remove(slot: number): void;
  /** Slots that may satisfy the condition, or null when this index cannot narrow it. */
  candidates(cond: FieldCondition): Set<number> | null;
  /**
   * Whether a slot satisfies the condition's match, decided by the index exactly as the filter
   * predicate would decide it from the payload (filter-eval.ts), or null where the index cannot
   * tell (then the payload is read). Only for a condition on the point's own payload.
   */
  matcher?(match: Match): ((slot: number) => boolean) | null;
  /**
   * The distinct values a facet counts for the slot, in payload order; absent on indexes a
   * facet cannot use (float, datetime, geo, text).
   */
  facetValues?(slot: number): FacetValue[];
}

/** The distinct facet values of `keys`, each mapped by `facet` (undefined: not counted). */
export function distinctFacets<K>(keys: readonly K[] | undefined, facet: (k: K) => FacetValue | undefined): FacetValue[] {
  const out = new Set<FacetValue>();
  for (const k of keys ?? []) {
    const v = facet(k);
    if (v !== undefined) out.add(v);
  }
  return [...out];
}

export function union(sets: Iterable<Set<number> | undefined>): Set<number> {
  const out = new Set<number>();
  for (const s of sets) if (s !== undefined) for (const x of s) out.add(x);
  return out;
}

export function intersect(sets: Set<number>[]): Set<number> {
  const sorted = [...sets].sort((a, b) => a.size - b.size);
  const [first, ...rest] = sorted;
  const out = new Set<number>();
  if (first === undefined) return out;
  for (const x of first) if (rest.every((s) => s.has(x))) out.add(x);
  return out;
}

/**
 * Slots holding values of another type than the index takes (an integer under a keyword
 * index, say) are kept aside and added to every candidate set, so candidates stay a superset.
 */
export abstract class TypedIndex {
  readonly #others = new Set<number>();

  protected noteOthers(slot: number, values: readonly JsonValue[], accepted: number): void {
    const present = values.filter((v) => v !== null).length;
    if (present > accepted) this.#others.add(slot);
  }

  protected forgetOthers(slot: number): void {
    this.#others.delete(slot);
  }

  protected withOthers(set: Set<number> | null): Set<number> | null {
    if (set === null) return null;
    for (const s of this.#others) set.add(s);
    return set;
  }
}

/**
 * Rough V8 sizes (64-bit heap) behind the memory estimates: a Map or Set entry (key, value,
 * chain link and its share of the buckets), a JS array element, a collection's own header, a
 * short key (string or heap number). Estimates from counts, not a heap walk: they show where
 * the memory goes and how it grows, within a small factor.
 */
export const ENTRY_BYTES = 32;
export const ELEMENT_BYTES = 8;
export const HEADER_BYTES = 64;
export const KEY_BYTES = 32;

/** key -> slots, with each slot's keys remembered so that removal needs no payload. */
export class Postings<K> {
  readonly #byKey = new Map<K, Set<number>>();
  readonly #bySlot = new Map<number, K[]>();
  /** (slot, key) pairs posted. */
  #pairs = 0;

  get slots(): number {
    return this.#bySlot.size;
  }

  get bytes(): number {
    return this.#pairs * (ENTRY_BYTES + ELEMENT_BYTES) + this.#bySlot.size * (ENTRY_BYTES + HEADER_BYTES) + this.#byKey.size * (ENTRY_BYTES + HEADER_BYTES + KEY_BYTES);
  }

  /** Posts the slot under each key (none: nothing is recorded). */
  add(slot: number, keys: Iterable<K>): void {
    const list = [...new Set(keys)];
    if (list.length === 0) return;
    this.#bySlot.set(slot, list);
    this.#pairs += list.length;
    for (const k of list) {
      let set = this.#byKey.get(k);
      if (set === undefined) this.#byKey.set(k, (set = new Set()));
      set.add(slot);
    }
  }

  remove(slot: number): void {
    const keys = this.#bySlot.get(slot) ?? [];
    this.#pairs -= keys.length;
    for (const k of keys) {
      const set = this.#byKey.get(k);
      set?.delete(slot);
      if (set?.size === 0) this.#byKey.delete(k);
    }
    this.#bySlot.delete(slot);
  }

  /** The index's own set: callers must copy before changing it. */
  get(key: K): Set<number> | undefined {
    return this.#byKey.get(key);
  }

  /** The keys with postings that pass `test`. */
  keysWhere(test: (k: K) => boolean): K[] {
    const out: K[] = [];
    for (const k of this.#byKey.keys()) if (test(k)) out.push(k);
    return out;
  }

  /** The distinct keys the slot is posted under, in the order given. */
  keysOf(slot: number): readonly K[] | undefined {
    return this.#bySlot.get(slot);
  }
}
