// Random payloads, conditions and filters for the payload index property tests
// (test/workers/payload-index-property.test.ts): mixed-type values aimed at the edges the indexes
// must get right (other-typed values, cell corners, the antimeridian, the poles, case and
// tokenization), and the index schemas under test. Deterministic for a given rng.

import type { Condition, FieldCondition, Filter, GeoPoint, RangeCond } from '../../src/shared/filter.js';
import type { FieldIndexSchema, JsonValue, Payload, PointId, TextIndexParams } from '../../src/shared/types.js';
import { box, polygon, radius, type Cond } from './payload-index.js';

const WORDS = ['red', 'Red', 'apple', 'red apple', 'Red-Apple pie', 'ÄPFEL birne', 'apples', 'pie', '', '  ', 'x', '3', 'true'];
const UUIDS = ['550e8400-e29b-41d4-a716-446655440000', '550E8400-E29B-41D4-A716-446655440000'];
const DATES = ['2024-01-01', '2024-01-01T12:00:00Z', '2024-01-01T13:30:00+02:00', '2023-12-31 23:59:59.5', '2024-01-02T00:00:00-0100'];
const BAD_DATES = ['not a date', '2024-13-45'];
const TEXT_QUERIES = ['red', 'apple red', 'app', 'RED', 'pie', '', 'äpfel', 'x', '!!!', 'red-apple', 'apple pie', 'birne', 'ap', 're', 'appl pi', 'bir'];

export type R = () => number;
const int = (r: R, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

export function geoPoint(r: R): GeoPoint {
  switch (int(r, 0, 6)) {
    case 0:
      return { lon: r() * 360 - 180, lat: r() * 180 - 90 };
    case 6: // high latitudes, where a degree of longitude is short
      return { lon: r() * 10 - 5, lat: (r() < 0.5 ? -1 : 1) * (74 + r() * 6) };
    case 1: // near the antimeridian
      return { lon: (r() < 0.5 ? -1 : 1) * (180 - r() * 2), lat: r() * 6 - 3 };
    case 2: // on cell corners and the edges of the world
      return { lon: pick(r, [-180, -2, -1, 0, 1, 2, 10, 180]), lat: pick(r, [-90, -1, 0, 1, 10, 90]) };
    case 3: // near a pole
      return { lon: r() * 360 - 180, lat: (r() < 0.5 ? -1 : 1) * (87 + r() * 3) };
    default: // a cluster most queries aim at
      return { lon: 10 + r() * 6 - 3, lat: 10 + r() * 6 - 3 };
  }
}

function scalar(r: R): JsonValue {
  switch (int(r, 0, 9)) {
    case 0:
      return null;
    case 1:
    case 2:
      return pick(r, WORDS);
    case 3:
      return pick(r, [...UUIDS, ...DATES, ...BAD_DATES]);
    case 4:
      return pick(r, [int(r, -4, 4), -0, 1e15]);
    case 5:
      return int(r, -4, 4) + pick(r, [0.5, 0.25, 0.999, 1e-9]);
    case 6:
      return r() < 0.5;
    default: {
      const g: Payload = { ...geoPoint(r) };
      if (r() < 0.2) g.k = pick(r, WORDS); // a point that also has a 'k' key
      return g;
    }
  }
}

export function value(r: R): JsonValue {
  const x = r();
  if (x < 0.65) return scalar(r);
  if (x < 0.9) return Array.from({ length: int(r, 0, 3) }, () => scalar(r));
  if (x < 0.95) return [[scalar(r), scalar(r)]];
  return { k: scalar(r), x: scalar(r) };
}

export function randomPayload(r: R): Payload | null {
  if (r() < 0.05) return null;
  const p: Payload = {};
  for (const key of ['a', 'b', 'c']) if (r() < 0.85) p[key] = value(r);
  const o = r();
  if (o < 0.3) p.o = { k: value(r) };
  else if (o < 0.45) p.o = { ...geoPoint(r), k: value(r) };
  else if (o < 0.6) p.o = Array.from({ length: int(r, 0, 3) }, () => ({ k: value(r) }));
  else if (o < 0.7) p.o = value(r);
  if (r() < 0.6) p.arr = Array.from({ length: int(r, 0, 3) }, () => (r() < 0.85 ? { v: value(r) } : scalar(r)));
  return p;
}

export const INDEXED_KEYS = ['a', 'b', 'c', 'o', 'o.k', 'arr[].v'];
const FILTER_KEYS = [...INDEXED_KEYS, 'arr', 'missing'];

function rangeCond(r: R): RangeCond {
  const out: RangeCond = {};
  const dates = r() < 0.25;
  for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
    if (r() < 0.4) out[k] = dates ? pick(r, DATES) : pick(r, [int(r, -5, 5), int(r, -5, 5) + 0.5, r() * 10 - 5, 1e15]);
  }
  return out;
}

function geoCond(r: R): Cond {
  const c = r() < 0.5 ? { lon: 10 + r() * 6 - 3, lat: 10 + r() * 6 - 3 } : geoPoint(r);
  const kind = int(r, 0, 2);
  if (kind === 0) {
    const w = clamp(c.lon - r() * 5, -180, 180);
    const e = r() < 0.2 ? clamp(c.lon - 10 - r() * 40, -180, 180) : clamp(c.lon + r() * 5, -180, 180); // may wrap
    const n = clamp(c.lat + r() * 5, -90, 90);
    const s = r() < 0.05 ? clamp(c.lat + 10, -90, 90) : clamp(c.lat - r() * 5, -90, 90); // may be crossed
    return box(w, n, e, s);
  }
  if (kind === 1) return radius(c.lon, c.lat, pick(r, [0, 1_000, 50_000, 150_000, 400_000, 1_500_000, 6_000_000, 25_000_000]));
  const n = int(r, 3, 6);
  const spread = pick(r, [0.5, 2, 8]);
  const pts: [number, number][] = Array.from({ length: n }, () => [
    clamp(c.lon + (r() * 2 - 1) * spread, -180, 180),
    clamp(c.lat + (r() * 2 - 1) * spread, -90, 90),
  ]);
  return polygon(...pts);
}

function matchValue(r: R): string | number | boolean {
  const x = r();
  if (x < 0.5) return pick(r, [...WORDS, ...UUIDS, ...DATES]);
  if (x < 0.85) return pick(r, [int(r, -4, 4), 1e15]);
  return r() < 0.5;
}

function anyValue(r: R): string | number {
  return r() < 0.6 ? pick(r, [...WORDS, ...UUIDS]) : int(r, -4, 4);
}

function fieldCond(r: R): FieldCondition {
  const key = pick(r, FILTER_KEYS);
  switch (int(r, 0, 11)) {
    case 0:
    case 1:
      return { key, match: { value: matchValue(r) } };
    case 2:
      return { key, match: { any: Array.from({ length: int(r, 0, 3) }, () => anyValue(r)) } };
    case 3:
      return { key, match: { except: Array.from({ length: int(r, 0, 2) }, () => anyValue(r)) } };
    case 4:
      return { key, match: { text: pick(r, TEXT_QUERIES) } };
    case 5:
      return { key, match: { phrase: pick(r, TEXT_QUERIES) } };
    case 6:
    case 7:
      return { key, range: rangeCond(r) };
    case 8:
    case 9:
      return { key, ...geoCond(r) };
    case 10:
      return { key, match: { value: matchValue(r) }, range: rangeCond(r) };
    default:
      return pick(r, [{ key, is_empty: r() < 0.5 }, { key, is_null: r() < 0.5 }, { key, values_count: { gte: int(r, 0, 2) } }]);
  }
}

function condition(r: R, ids: readonly PointId[], depth: number): Condition {
  const x = r();
  if (x < 0.72 || depth >= 2) return fieldCond(r);
  if (x < 0.8) return { has_id: Array.from({ length: int(r, 0, 4) }, () => pick(r, ids)) };
  if (x < 0.88) return randomFilter(r, ids, depth + 1);
  if (x < 0.93) return { filter: randomFilter(r, ids, depth + 1) };
  if (x < 0.97) return { nested: { key: 'arr', filter: { must: [{ ...fieldCond(r), key: 'v' }] } } };
  return pick(r, [{ is_empty: { key: pick(r, FILTER_KEYS) } }, { is_null: { key: pick(r, FILTER_KEYS) } }]);
}

export function randomFilter(r: R, ids: readonly PointId[], depth = 0): Filter {
  const list = (max: number): Condition[] | Condition => {
    const xs = Array.from({ length: int(r, 0, max) }, () => condition(r, ids, depth));
    return xs.length === 1 && r() < 0.3 ? xs[0]! : xs;
  };
  const f: Filter = {};
  if (r() < 0.75) f.must = list(3);
  if (r() < 0.45) f.should = list(3);
  if (r() < 0.3) f.must_not = list(2);
  if (r() < 0.05) {
    const conditions = Array.from({ length: int(r, 1, 3) }, () => condition(r, ids, depth));
    f.min_should = { conditions, min_count: int(r, 1, conditions.length) };
  }
  return f;
}

const TEXT_PARAMS: TextIndexParams[] = [
  { tokenizer: 'word', min_token_len: null, max_token_len: null, lowercase: true },
  { tokenizer: 'whitespace', min_token_len: null, max_token_len: null, lowercase: true },
  { tokenizer: 'prefix', min_token_len: 2, max_token_len: null, lowercase: true },
  { tokenizer: 'multilingual', min_token_len: null, max_token_len: null, lowercase: false },
  { tokenizer: 'word', min_token_len: 2, max_token_len: 5, lowercase: true },
];

export const SCHEMAS: FieldIndexSchema[] = [
  ...(['keyword', 'uuid', 'bool', 'integer', 'float', 'datetime', 'geo'] as const).map((type) => ({ type })),
  ...TEXT_PARAMS.map((t) => ({ type: 'text' as const, text: t })),
];

/** A random condition on 'k' of the kinds the schema's index can narrow. */
export function condFor(r: R, schema: FieldIndexSchema): FieldCondition {
  const key = 'k';
  switch (schema.type) {
    case 'geo':
      return { key, ...geoCond(r) };
    case 'text':
      return { key, match: r() < 0.7 ? { text: pick(r, TEXT_QUERIES) } : { phrase: pick(r, TEXT_QUERIES) } };
    case 'integer':
    case 'float':
    case 'datetime':
      if (r() < 0.6) return { key, range: rangeCond(r) };
      return { key, match: r() < 0.6 ? { value: matchValue(r) } : { any: Array.from({ length: int(r, 0, 3) }, () => anyValue(r)) } };
    default:
      return { key, match: r() < 0.6 ? { value: matchValue(r) } : { any: Array.from({ length: int(r, 0, 3) }, () => anyValue(r)) } };
  }
}
