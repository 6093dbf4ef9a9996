// Qdrant's filter language, as it crosses the worker boundary after validation in the main
// thread. The evaluator lives in src/workers/shard/filter-eval.ts.

import type { PointId } from './types.js';

export interface Filter {
  must?: Condition[] | Condition;
  should?: Condition[] | Condition;
  must_not?: Condition[] | Condition;
  min_should?: { conditions: Condition[]; min_count: number };
}

export type Match =
  | { value: string | number | boolean }
  | { any: (string | number)[] }
  | { except: (string | number)[] }
  | { text: string }
  | { text_any: string }
  | { phrase: string }
  | { prefix: string };

export interface RangeCond {
  gt?: number | string | null;
  gte?: number | string | null;
  lt?: number | string | null;
  lte?: number | string | null;
}

export interface GeoPoint {
  lon: number;
  lat: number;
}

export interface FieldCondition {
  key: string;
  match?: Match;
  range?: RangeCond;
  geo_bounding_box?: { top_left: GeoPoint; bottom_right: GeoPoint };
  geo_radius?: { center: GeoPoint; radius: number };
  geo_polygon?: { exterior: { points: GeoPoint[] }; interiors?: { points: GeoPoint[] }[] };
  values_count?: { gt?: number; gte?: number; lt?: number; lte?: number };
  is_empty?: boolean;
  is_null?: boolean;
}

export type Condition =
  | FieldCondition
  | { is_empty: { key: string } }
  | { is_null: { key: string } }
  | { has_id: PointId[] }
  | { has_vector: string }
  /** Qdrant's slice of the id space (src/shared/point-slice.ts): `index` of `total`. */
  | { slice: { total: number; index: number } }
  | { nested: { key: string; filter: Filter } }
  | { filter: Filter }
  | Filter;


/**
 * Every leaf condition of a filter, sub-filters walked, in clause order: `prefix` is what a nested
 * condition puts before its inner keys (`items[].`), `at` where the condition sits
 * (`.must[0]`, `.min_should.conditions[1]`, after a sub-filter's own place). A nested condition
 * comes itself, then its inner conditions.
 */
export function* conditionsOf(f: Filter, prefix = '', at = ''): Generator<{ c: Condition; prefix: string; at: string }> {
  const clauses: [string, Condition[] | Condition | undefined][] = [
    ['must', f.must],
    ['should', f.should],
    ['must_not', f.must_not],
    ['min_should.conditions', f.min_should?.conditions],
  ];
  for (const [name, part] of clauses) {
    if (part === undefined) continue;
    const list = Array.isArray(part) ? part : [part];
    for (const [i, c] of list.entries()) {
      const here = `${at}.${name}[${i}]`;
      if ('must' in c || 'should' in c || 'must_not' in c || 'min_should' in c) yield* conditionsOf(c as Filter, prefix, here);
      else if ('filter' in c) yield* conditionsOf(c.filter, prefix, here);
      else if ('nested' in c) {
        yield { c, prefix, at: here };
        yield* conditionsOf(c.nested.filter, `${prefix}${c.nested.key}[].`, `${here}.nested.filter`);
      } else yield { c, prefix, at: here };
    }
  }
}
