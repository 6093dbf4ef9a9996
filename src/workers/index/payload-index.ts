// Payload field indexes of one shard, and the planner that turns a filter into candidate slots.
//
// Each index maps payload values at one key to the slots holding them: keyword/uuid/bool (and
// integer lookups) as value -> slot sets; integer/float/datetime as a sorted (value, slot)
// column, rebuilt lazily after writes; geo as 1-degree grid cells; text as an inverted index of
// tokenizer terms. Invariant: an index holds exactly the current payload of every live slot.
// Candidates may be a superset of the matches (the filter predicate always refines them), never
// a subset.

import { parseDatetime } from '../../shared/datetime.js';
import type { Condition, FieldCondition, Filter, GeoPoint } from '../../shared/filter.js';
import type { FacetValue } from '../../shared/protocol.js';
import type { FieldIndexSchema, JsonValue, TextIndexParams } from '../../shared/types.js';
import { docTokens, indexTerms, queryTokens } from './tokenizer.js';

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
   * The distinct values a facet counts for the slot, in payload order; absent on indexes a
   * facet cannot use (float, datetime, geo, text).
   */
  facetValues?(slot: number): FacetValue[];
}

/** The distinct facet values of `keys`, each mapped by `facet` (undefined: not counted). */
function distinctFacets<K>(keys: readonly K[] | undefined, facet: (k: K) => FacetValue | undefined): FacetValue[] {
  const out = new Set<FacetValue>();
  for (const k of keys ?? []) {
    const v = facet(k);
    if (v !== undefined) out.add(v);
  }
  return [...out];
}

function union(sets: Iterable<Set<number> | undefined>): Set<number> {
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
abstract class TypedIndex {
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
const ENTRY_BYTES = 32;
const ELEMENT_BYTES = 8;
const HEADER_BYTES = 64;
const KEY_BYTES = 32;

/** key -> slots, with each slot's keys remembered so that removal needs no payload. */
class Postings<K> {
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

  /** The distinct keys the slot is posted under, in the order given. */
  keysOf(slot: number): readonly K[] | undefined {
    return this.#bySlot.get(slot);
  }
}

/** Exact-value index: keyword, uuid, bool. */
class ValueIndex<K extends string> extends TypedIndex implements FieldIndex {
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
    return null;
  }
}

/** Ordered numeric index: integer, float, datetime (as epoch milliseconds). */
export class RangeIndex extends TypedIndex implements FieldIndex {
  readonly schema: FieldIndexSchema;
  readonly #convert: (v: JsonValue) => number | undefined;
  readonly #bySlot = new Map<number, number[]>();
  #sorted: { values: Float64Array; slots: Int32Array } | null = null;
  readonly facetValues?: (slot: number) => FacetValue[];

  /** `facet` given: the index serves facets, counting the values it maps (integer only). */
  constructor(schema: FieldIndexSchema, convert: (v: JsonValue) => number | undefined, facet?: (n: number) => FacetValue | undefined) {
    super();
    this.schema = schema;
    this.#convert = convert;
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
    if (m !== undefined && this.schema.type === 'integer') {
      const exact = (v: unknown): Set<number> =>
        typeof v === 'number' ? this.#slotsBetween(this.lowerBound(v), this.lowerBound(v, true)) : new Set();
      if ('value' in m) return this.withOthers(exact(m.value));
      if ('any' in m) return this.withOthers(union(m.any.map(exact)));
    }
    return null;
  }
}

const CELL = 1; // degrees
const MAX_CELLS = 20_000;

function cellOf(p: GeoPoint): string {
  return `${Math.floor(p.lat / CELL)}:${Math.floor(p.lon / CELL)}`;
}

/** Geo points bucketed in 1-degree cells; a query collects the cells its bounding box covers. */
class GeoIndex extends TypedIndex implements FieldIndex {
  readonly schema: FieldIndexSchema;
  readonly #cells = new Postings<string>();

  constructor(schema: FieldIndexSchema) {
    super();
    this.schema = schema;
  }

  get points(): number {
    return this.#cells.slots;
  }

  get bytes(): number {
    return this.#cells.bytes;
  }

  add(slot: number, values: readonly JsonValue[]): void {
    const cells = new Set<string>();
    let accepted = 0;
    for (const v of values) {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
      const { lon, lat } = v;
      // Out-of-range points stay with the other-typed ones: no cell holds them, every query sees them.
      if (typeof lon === 'number' && typeof lat === 'number' && Math.abs(lon) <= 180 && Math.abs(lat) <= 90) {
        cells.add(cellOf({ lon, lat }));
        accepted++;
      }
    }
    this.noteOthers(slot, values, accepted);
    this.#cells.add(slot, cells);
  }

  remove(slot: number): void {
    this.#cells.remove(slot);
    this.forgetOthers(slot);
  }

  /** Slots in cells overlapping lat [south, north] x lon [west, east] (west > east: across the antimeridian). */
  #box(south: number, north: number, west: number, east: number): Set<number> | null {
    const lonRanges: [number, number][] = west <= east ? [[west, east]] : [[west, 180], [-180, east]];
    const lat0 = Math.floor(south / CELL);
    const lat1 = Math.floor(north / CELL);
    let count = 0;
    for (const [w, e] of lonRanges) count += (lat1 - lat0 + 1) * (Math.floor(e / CELL) - Math.floor(w / CELL) + 1);
    if (count > MAX_CELLS) return null;
    const out = new Set<number>();
    for (const [w, e] of lonRanges) {
      for (let la = lat0; la <= lat1; la++) {
        for (let lo = Math.floor(w / CELL); lo <= Math.floor(e / CELL); lo++) {
          for (const s of this.#cells.get(`${la}:${lo}`) ?? []) out.add(s);
        }
      }
    }
    return this.withOthers(out);
  }

  candidates(cond: FieldCondition): Set<number> | null {
    if (cond.geo_bounding_box !== undefined) {
      const { top_left: tl, bottom_right: br } = cond.geo_bounding_box;
      return this.#box(br.lat, tl.lat, tl.lon, br.lon);
    }
    if (cond.geo_radius !== undefined) {
      const { center, radius } = cond.geo_radius;
      const dLat = radius / 111_000 + 0.01;
      const south = center.lat - dLat;
      const north = center.lat + dLat;
      if (south <= -89 || north >= 89) return null; // near a pole every longitude may be in reach
      const cos = Math.min(Math.cos((south * Math.PI) / 180), Math.cos((north * Math.PI) / 180));
      const dLon = radius / (111_000 * cos) + 0.01;
      if (dLon >= 180) return null;
      let west = center.lon - dLon;
      let east = center.lon + dLon;
      if (west < -180) west += 360;
      if (east > 180) east -= 360;
      return this.#box(south, north, west, east);
    }
    if (cond.geo_polygon !== undefined) {
      const pts = cond.geo_polygon.exterior.points;
      const lats = pts.map((p) => p.lat);
      const lons = pts.map((p) => p.lon);
      return this.#box(Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons));
    }
    return null;
  }
}

/** Full-text inverted index: term -> slots. */
class TextIndex extends TypedIndex implements FieldIndex {
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

const asString = (v: JsonValue): string | undefined => (typeof v === 'string' ? v : undefined);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Facets count a narrower set than the indexes match on, as Qdrant's: a uuid facet counts valid
// UUIDs, lowercased (the index matches the exact string); an integer facet counts exact integers
// only (beyond 2^53 a number is no longer the integer it was written as, and gRPC would carry it
// as a wrapped int64).
const keywordFacet = (k: string): FacetValue => k;
const uuidFacet = (k: string): FacetValue | undefined => (UUID_RE.test(k) ? k.toLowerCase() : undefined);
const integerFacet = (n: number): FacetValue | undefined => (Number.isSafeInteger(n) ? n : undefined);

export function createFieldIndex(schema: FieldIndexSchema): FieldIndex {
  switch (schema.type) {
    case 'keyword':
      return new ValueIndex<string>(schema, asString, keywordFacet);
    case 'uuid':
      return new ValueIndex<string>(schema, asString, uuidFacet);
    case 'bool':
      // Booleans are posted under 'true'/'false' so one map type serves every exact-value index.
      return new ValueIndex<'true' | 'false'>(
        schema,
        (v) => (typeof v === 'boolean' ? (String(v) as 'true' | 'false') : undefined),
        (k) => k === 'true',
      );
    case 'integer':
      return new RangeIndex(schema, (v) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined), integerFacet);
    case 'float':
      return new RangeIndex(schema, (v) => (typeof v === 'number' ? v : undefined));
    case 'datetime':
      return new RangeIndex(schema, (v) => {
        if (typeof v !== 'string') return undefined;
        const t = parseDatetime(v);
        return Number.isNaN(t) ? undefined : t;
      });
    case 'geo':
      return new GeoIndex(schema);
    case 'text':
      return new TextIndex(schema, schema.text ?? { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true });
  }
}

/**
 * The planner: candidate slots for a filter from its indexed `must` conditions (intersected),
 * an all-indexed `should` (united) and has_id, or null when no index narrows it.
 */
export function planCandidates(
  filter: Filter,
  indexes: ReadonlyMap<string, FieldIndex>,
  slotsOfIds: (ids: readonly (number | string)[]) => Set<number>,
): Set<number> | null {
  const list = (c: Condition[] | Condition | undefined): Condition[] => (c === undefined ? [] : Array.isArray(c) ? c : [c]);
  const forCondition = (c: Condition): Set<number> | null => {
    if ('key' in c) return indexes.get(c.key)?.candidates(c) ?? null;
    if ('has_id' in c) return slotsOfIds(c.has_id);
    if ('filter' in c) return planCandidates(c.filter, indexes, slotsOfIds);
    if ('must' in c || 'should' in c || 'must_not' in c || 'min_should' in c) return planCandidates(c as Filter, indexes, slotsOfIds);
    return null;
  };
  const sets: Set<number>[] = [];
  for (const c of list(filter.must)) {
    const s = forCondition(c);
    if (s !== null) sets.push(s);
  }
  const should = list(filter.should);
  if (should.length > 0) {
    const parts = should.map(forCondition);
    if (parts.every((p): p is Set<number> => p !== null)) sets.push(union(parts));
  }
  // The sets are fresh (never an index's own postings), so a lone one is returned uncopied.
  if (sets.length <= 1) return sets[0] ?? null;
  return intersect(sets);
}
