// Evaluates a (validated) Qdrant filter against one point. Compiled once per request into a
// predicate over shard slots. Semantics follow Qdrant: key paths flatten arrays (`a.b`, `a[].b`,
// `a[]`); a condition on a field holding an array matches if any element matches; `except`
// and the emptiness checks treat a missing field as empty.

import type { Condition, FieldCondition, Filter, GeoPoint, Match, RangeCond } from '../../shared/filter.js';
import { parseDatetime } from '../../shared/datetime.js';
import { getOwn } from '../../shared/json.js';
import type { JsonValue, Payload, PointId, TextIndexParams } from '../../shared/types.js';
import { parseJsonPath, type PathItem } from '../../shared/json-path.js';
import { inSlice } from '../../shared/point-slice.js';
import { phraseMatches, textAnyMatches, textMatches } from '../index/tokenizer.js';

export interface FilterView {
  payload(slot: number): Payload | null;
  id(slot: number): PointId;
  hasVector(slot: number, name: string): boolean;
  /** The text index on a key, if any: with one, text matches compare tokens, not substrings. */
  textIndex(key: string): TextIndexParams | undefined;
  /**
   * A per-slot test of a match on a key, answered by its payload index as the payload would
   * answer it (FieldIndex.matcher), or null; absent where the points are not the indexed ones
   * (a payload a write is about to store).
   */
  indexMatch?(key: string, match: Match): ((slot: number) => boolean) | null;
}

type Ctx = { payload: Payload; slot: number; nestedDepth: number };
type Pred = (ctx: Ctx) => boolean;

function asList<T>(v: T[] | T | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export type PathPart = PathItem;

/**
 * A key's items. Filter keys were checked in the main thread; a key that still does not parse
 * (an index named before keys were checked) is read as one literal top-level key, never thrown on.
 */
export function parsePath(key: string): PathPart[] {
  return parseJsonPath(key) ?? [{ key }];
}

/**
 * All values at a path, as Qdrant reads them: a key step reads an object's key and finds nothing
 * in an array (so an array `a` of objects is reached by `a[].b`, not `a.b`); `[n]` takes one
 * element of an array; `[]` spreads an array, and a value that is not an array has no elements
 * (`a[]` of an object is nothing). An array at the path's end is compared element by element
 * (fieldValues).
 */
export function valuesAt(root: JsonValue, path: PathPart[]): JsonValue[] {
  let cur: JsonValue[] = [root];
  for (const part of path) {
    const next: JsonValue[] = [];
    if ('key' in part) {
      for (const v of cur) {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
        const child = getOwn(v, part.key);
        if (child !== undefined) next.push(child);
      }
    } else if ('index' in part) {
      for (const v of cur) if (Array.isArray(v) && v[part.index] !== undefined) next.push(v[part.index]!);
    } else {
      for (const v of cur) if (Array.isArray(v)) next.push(...v);
    }
    cur = next;
  }
  return cur;
}

/** Leaf values, arrays flattened: what match and range conditions compare against. */
function leaves(values: JsonValue[]): JsonValue[] {
  return values.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

/** The values a condition on `path` compares against: what a field index on that key holds. */
export function fieldValues(payload: Payload, path: PathPart[]): JsonValue[] {
  return leaves(valuesAt(payload, path));
}

function matchPred(match: Match, text: TextIndexParams | undefined): (v: JsonValue) => boolean {
  if ('value' in match) {
    const want = match.value;
    return (v) => v === want;
  }
  if ('any' in match) {
    const set = new Set<unknown>(match.any);
    return (v) => (typeof v === 'string' || typeof v === 'number') && set.has(v);
  }
  if ('except' in match) {
    const set = new Set<unknown>(match.except);
    // A stored null is a value, not an absence: it never satisfies `except` (as Qdrant).
    return (v) => v !== null && !set.has(v);
  }
  if ('prefix' in match) {
    const start = match.prefix;
    return (v) => typeof v === 'string' && v.startsWith(start);
  }
  // Without a full-text index Qdrant compares raw strings: `text` and `phrase` are substrings
  // (case-sensitive, so an empty one is in every string), `text_any` needs one of the query's
  // whitespace-separated words as a substring.
  if ('text' in match) {
    const needle = match.text;
    if (text !== undefined) return (v) => typeof v === 'string' && textMatches(v, needle, text);
    return (v) => typeof v === 'string' && v.includes(needle);
  }
  if ('text_any' in match) {
    const query = match.text_any;
    if (text !== undefined) return (v) => typeof v === 'string' && textAnyMatches(v, query, text);
    const words = query.split(/\p{White_Space}+/u).filter((w) => w !== '');
    return (v) => typeof v === 'string' && words.some((w) => v.includes(w));
  }
  const phrase = match.phrase;
  if (text !== undefined) return (v) => typeof v === 'string' && phraseMatches(v, phrase, text);
  return (v) => typeof v === 'string' && v.includes(phrase);
}

function toComparable(v: JsonValue, datetime: boolean): number | null {
  if (datetime) {
    if (typeof v !== 'string') return null;
    const t = parseDatetime(v);
    return Number.isNaN(t) ? null : t;
  }
  return typeof v === 'number' ? v : null;
}

function rangePred(r: RangeCond): (v: JsonValue) => boolean {
  const bounds = [r.gt, r.gte, r.lt, r.lte];
  const datetime = bounds.some((b) => typeof b === 'string');
  const conv = (b: number | string | null | undefined): number | null =>
    b === undefined || b === null ? null : typeof b === 'string' ? parseDatetime(b) : b;
  const [gt, gte, lt, lte] = bounds.map(conv);
  return (v) => {
    const x = toComparable(v, datetime);
    if (x === null) return false;
    return (
      (gt === null || gt === undefined || x > gt) &&
      (gte === null || gte === undefined || x >= gte) &&
      (lt === null || lt === undefined || x < lt) &&
      (lte === null || lte === undefined || x <= lte)
    );
  };
}

function asGeo(v: JsonValue): GeoPoint | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const { lon, lat } = v;
  return typeof lon === 'number' && typeof lat === 'number' ? { lon, lat } : null;
}

const EARTH_RADIUS_M = 6_371_008.8;

export function haversine(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

function inRing(p: GeoPoint, ring: GeoPoint[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (a.lat > p.lat !== b.lat > p.lat && p.lon < ((b.lon - a.lon) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lon) {
      inside = !inside;
    }
  }
  return inside;
}

function isEmptyValues(raw: JsonValue[]): boolean {
  return raw.every((v) => v === null || (Array.isArray(v) && v.length === 0));
}

const NO_VALUES: JsonValue[] = [];

/** The condition's fields besides `key` and `match`: any of them leaves the payload to decide. */
const NOT_MATCH = ['range', 'geo_bounding_box', 'geo_radius', 'geo_polygon', 'values_count', 'is_empty', 'is_null'] as const;

function fieldPred(c: FieldCondition, view: FilterView, scope: string): Pred {
  // A match on the point's own payload (not inside nested) that the key's index decides: no
  // payload read per point (on disk, an LMDB read and a JSON parse each).
  if (scope === '' && c.match !== undefined && view.indexMatch !== undefined && NOT_MATCH.every((f) => c[f] === undefined)) {
    const test = view.indexMatch(c.key, c.match);
    if (test !== null) return (ctx) => test(ctx.slot);
  }
  const path = parsePath(c.key);
  const checks: ((raw: JsonValue[]) => boolean)[] = [];
  // Hot path (runs per point per condition): walk the leaves without building arrays.
  const anyLeaf = (p: (v: JsonValue) => boolean) => (raw: JsonValue[]) => {
    for (const v of raw) {
      if (Array.isArray(v)) {
        for (const e of v) if (p(e)) return true;
      } else if (p(v)) {
        return true;
      }
    }
    return false;
  };
  if (c.match !== undefined) {
    const p = matchPred(c.match, view.textIndex(scope + c.key));
    if ('except' in c.match) {
      // Qdrant: an empty or missing field satisfies `except`.
      checks.push((raw) => {
        const l = leaves(raw);
        return l.length === 0 || l.some(p);
      });
    } else {
      checks.push(anyLeaf(p));
    }
  }
  if (c.range !== undefined) checks.push(anyLeaf(rangePred(c.range)));
  if (c.geo_bounding_box !== undefined) {
    const { top_left: tl, bottom_right: br } = c.geo_bounding_box;
    const wraps = tl.lon > br.lon; // crosses the antimeridian
    checks.push(
      anyLeaf((v) => {
        const g = asGeo(v);
        if (g === null || g.lat > tl.lat || g.lat < br.lat) return false;
        return wraps ? g.lon >= tl.lon || g.lon <= br.lon : g.lon >= tl.lon && g.lon <= br.lon;
      }),
    );
  }
  if (c.geo_radius !== undefined) {
    const { center, radius } = c.geo_radius;
    checks.push(
      anyLeaf((v) => {
        const g = asGeo(v);
        return g !== null && haversine(center, g) <= radius;
      }),
    );
  }
  if (c.geo_polygon !== undefined) {
    const ext = c.geo_polygon.exterior.points;
    const ints = (c.geo_polygon.interiors ?? []).map((r) => r.points);
    checks.push(
      anyLeaf((v) => {
        const g = asGeo(v);
        return g !== null && inRing(g, ext) && !ints.some((r) => inRing(g, r));
      }),
    );
  }
  if (c.values_count !== undefined) {
    const vc = c.values_count;
    checks.push((raw) => {
      const n = leaves(raw).length;
      return (
        (vc.gt === undefined || n > vc.gt) &&
        (vc.gte === undefined || n >= vc.gte) &&
        (vc.lt === undefined || n < vc.lt) &&
        (vc.lte === undefined || n <= vc.lte)
      );
    });
  }
  if (c.is_empty !== undefined) {
    const want = c.is_empty;
    checks.push((raw) => isEmptyValues(raw) === want);
  }
  if (c.is_null !== undefined) {
    const want = c.is_null;
    checks.push((raw) => raw.some((v) => v === null) === want);
  }
  // A plain top-level key (the common case) is read directly instead of through the path walker.
  const first = path[0]!;
  const plainKey = path.length === 1 && 'key' in first ? first.key : null;
  // The one value of a plain key, in an array no check keeps: none per point evaluated.
  const one: JsonValue[] = [null];
  return (ctx) => {
    let raw: JsonValue[];
    if (plainKey !== null) {
      const v = getOwn(ctx.payload, plainKey);
      if (v === undefined) raw = NO_VALUES;
      else {
        one[0] = v;
        raw = one;
      }
    } else {
      raw = valuesAt(ctx.payload, path);
    }
    for (const check of checks) if (!check(raw)) return false;
    return true;
  };
}

/**
 * `scope` is the path of the nested arrays a condition sits in (`diet[].`), so that a condition
 * on `food` inside `nested: {key: 'diet'}` uses a text index on `diet[].food`, as Qdrant does.
 */
function conditionPred(c: Condition, view: FilterView, scope: string): Pred {
  if ('key' in c) return fieldPred(c, view, scope);
  if ('has_id' in c) {
    // Qdrant: has_id and has_vector inside nested never match (point-level, not element-level).
    const ids = new Set<PointId>(c.has_id);
    return (ctx) => ctx.nestedDepth === 0 && ids.has(view.id(ctx.slot));
  }
  if ('slice' in c) {
    const { total, index } = c.slice;
    return (ctx) => ctx.nestedDepth === 0 && inSlice(view.id(ctx.slot), total, index);
  }
  if ('has_vector' in c) {
    const name = c.has_vector;
    return (ctx) => ctx.nestedDepth === 0 && view.hasVector(ctx.slot, name);
  }
  if ('is_empty' in c && typeof c.is_empty === 'object') {
    const path = parsePath(c.is_empty.key);
    return (ctx) => isEmptyValues(valuesAt(ctx.payload, path));
  }
  if ('is_null' in c && typeof c.is_null === 'object') {
    const path = parsePath(c.is_null.key);
    return (ctx) => valuesAt(ctx.payload, path).some((v) => v === null);
  }
  if ('nested' in c) {
    // Qdrant reads `key[]`: the elements of the array(s) at key; a lone object is not an array
    // and does not count. Each object element must satisfy the whole inner filter by itself,
    // so a must_not inside reads "some element matches none of these".
    const items = parsePath(c.nested.key);
    const last = items[items.length - 1];
    const path = items.length > 1 && last !== undefined && 'wildcard' in last ? items.slice(0, -1) : items;
    const base = c.nested.key.endsWith('[]') ? c.nested.key : `${c.nested.key}[]`;
    const inner = filterPred(c.nested.filter, view, `${scope}${base}.`);
    return (ctx) => {
      for (const arr of valuesAt(ctx.payload, path)) {
        if (!Array.isArray(arr)) continue;
        for (const e of arr) {
          if (e === null || typeof e !== 'object' || Array.isArray(e)) continue;
          if (inner({ payload: e, slot: ctx.slot, nestedDepth: ctx.nestedDepth + 1 })) return true;
        }
      }
      return false;
    };
  }
  if ('filter' in c) return filterPred(c.filter, view, scope);
  return filterPred(c as Filter, view, scope);
}

function filterPred(f: Filter, view: FilterView, scope: string): Pred {
  const must = asList(f.must).map((c) => conditionPred(c, view, scope));
  const should = asList(f.should).map((c) => conditionPred(c, view, scope));
  const mustNot = asList(f.must_not).map((c) => conditionPred(c, view, scope));
  const min = f.min_should
    ? { preds: f.min_should.conditions.map((c) => conditionPred(c, view, scope)), count: f.min_should.min_count }
    : null;
  return (ctx) => {
    for (const p of must) if (!p(ctx)) return false;
    for (const p of mustNot) if (p(ctx)) return false;
    if (should.length > 0 && !should.some((p) => p(ctx))) return false;
    if (min !== null) {
      let n = 0;
      for (const p of min.preds) if (p(ctx) && ++n >= min.count) break;
      if (n < min.count) return false;
    }
    return true;
  };
}

const EMPTY: Payload = {};

/**
 * The point a compiled filter evaluates. The payload is read at the first condition that looks
 * into it: has_id, has_vector and the like never do, and a payload on disk costs an LMDB read
 * and a parse. One per compiled filter, reset per point (no condition keeps it): an object
 * literal with a getter per point was a fifth of a filtered exact search.
 */
class PointCtx implements Ctx {
  slot = 0;
  readonly nestedDepth = 0;
  #payload: Payload | null = null;
  readonly #view: FilterView;

  constructor(view: FilterView) {
    this.#view = view;
  }

  at(slot: number): this {
    this.slot = slot;
    this.#payload = null;
    return this;
  }

  get payload(): Payload {
    return (this.#payload ??= this.#view.payload(this.slot) ?? EMPTY);
  }
}

export function compileFilter(filter: Filter, view: FilterView): (slot: number) => boolean {
  const pred = filterPred(filter, view, '');
  const ctx = new PointCtx(view);
  return (slot) => pred(ctx.at(slot));
}
