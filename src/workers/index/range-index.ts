// The ordered numeric payload index (integer, float, datetime as epoch milliseconds): each slot's
// values, and a sorted (value, slot) column built from them on first use after a write. Ranges
// are answered by binary search in the column; integer matches too (an integer index doubles as
// a lookup index), and order-by reads the column directly.
// Invariant: the column, when present, holds exactly the (value, slot) pairs of the live slots.

import { parseDatetime } from '../../shared/datetime.js';
import type { FieldCondition } from '../../shared/filter.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { FieldIndexSchema, JsonValue } from '../../shared/types.js';
import { distinctFacets, ELEMENT_BYTES, ENTRY_BYTES, HEADER_BYTES, TypedIndex, union, type FieldIndex } from './field-index.js';

/** Ordered numeric index: integer, float, datetime (as epoch milliseconds). */
export class RangeIndex extends TypedIndex implements FieldIndex {
  readonly schema: FieldIndexSchema;
  readonly #convert: (v: JsonValue) => number | undefined;
  readonly #bySlot = new Map<number, number[]>();
  #sorted: { values: Float64Array; slots: Int32Array } | null = null;
  readonly facetValues?: (slot: number) => FacetValue[];

  /** Integer matches answered from the column (an integer index's `lookup`, true by default). */
  readonly #lookup: boolean;

  /** `facet` given: the index serves facets, counting the values it maps (integer only). */
  constructor(schema: FieldIndexSchema, convert: (v: JsonValue) => number | undefined, facet?: (n: number) => FacetValue | undefined, lookup = true) {
    super();
    this.schema = schema;
    this.#convert = convert;
    this.#lookup = lookup;
    if (facet !== undefined) this.facetValues = (slot) => distinctFacets(this.#bySlot.get(slot), facet);
  }

  get points(): number {
    return this.#bySlot.size;
  }

  get bytes(): number {
    // Per slot its values array; per value 8 bytes there and 12 in the sorted column.
    let values = 0;
    for (const v of this.#bySlot.values()) values += v.length;
    return this.#bySlot.size * (ENTRY_BYTES + HEADER_BYTES) + values * (ELEMENT_BYTES + 12);
  }

  add(slot: number, values: readonly JsonValue[]): void {
    const nums = values.map(this.#convert).filter((n): n is number => n !== undefined);
    this.noteOthers(slot, values, nums.length);
    if (nums.length === 0) return;
    this.#bySlot.set(slot, nums);
    this.#sorted = null;
  }

  remove(slot: number): void {
    if (this.#bySlot.delete(slot)) this.#sorted = null;
    this.forgetOthers(slot);
  }

  /** The (value, slot) column in ascending value order. */
  column(): { values: Float64Array; slots: Int32Array } {
    if (this.#sorted === null) {
      const pairs: [number, number][] = [];
      for (const [slot, vals] of this.#bySlot) for (const v of vals) pairs.push([v, slot]);
      pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      this.#sorted = { values: Float64Array.from(pairs, (p) => p[0]), slots: Int32Array.from(pairs, (p) => p[1]) };
    }
    return this.#sorted;
  }

  /** First position whose value is >= x (or > x when `strict`). */
  lowerBound(x: number, strict = false): number {
    const { values } = this.column();
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strict ? values[mid]! <= x : values[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #slotsBetween(from: number, to: number): Set<number> {
    const { slots } = this.column();
    const out = new Set<number>();
    for (let i = from; i < to; i++) out.add(slots[i]!);
    return out;
  }

  candidates(cond: FieldCondition): Set<number> | null {
    const conv = (b: number | string | null | undefined): number | undefined =>
      b === undefined || b === null ? undefined : typeof b === 'string' ? parseDatetime(b) : b;
    if (cond.range !== undefined) {
      const r = cond.range;
      const gt = conv(r.gt);
      const gte = conv(r.gte);
      const lt = conv(r.lt);
      const lte = conv(r.lte);
      const n = this.column().values.length;
      let from = 0;
      let to = n;
      if (gte !== undefined) from = Math.max(from, this.lowerBound(gte));
      if (gt !== undefined) from = Math.max(from, this.lowerBound(gt, true));
      if (lt !== undefined) to = Math.min(to, this.lowerBound(lt));
      if (lte !== undefined) to = Math.min(to, this.lowerBound(lte, true));
      return this.withOthers(this.#slotsBetween(from, Math.max(from, to)));
    }
    const m = cond.match;
    if (m !== undefined && this.schema.type === 'integer' && this.#lookup) {
      const exact = (v: unknown): Set<number> =>
        typeof v === 'number' ? this.#slotsBetween(this.lowerBound(v), this.lowerBound(v, true)) : new Set();
      if ('value' in m) return this.withOthers(exact(m.value));
      if ('any' in m) return this.withOthers(union(m.any.map(exact)));
    }
    return null;
  }
}
