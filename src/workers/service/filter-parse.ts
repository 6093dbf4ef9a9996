// Checks a filter from a request against Qdrant's grammar and returns it typed, or a 400 naming
// the offending part (`filter.must[1].range.gt: expected a number or an RFC 3339 datetime`).
// Unknown keys are errors: a misspelt condition must never match everything.

import { QuiverError } from '../../shared/errors.js';
import type { Condition, FieldCondition, Filter, GeoPoint, Match, RangeCond } from '../../shared/filter.js';
import { parseDatetime } from '../../shared/datetime.js';
import { parsePointId } from '../../shared/ids.js';
import { invalidPathMessage, parseJsonPath } from '../../shared/json-path.js';

type Obj = Record<string, unknown>;

function fail(path: string, msg: string): never {
  throw QuiverError.badInput(`Bad filter: ${path}: ${msg}`);
}

function obj(v: unknown, path: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) fail(path, 'expected an object');
  return v as Obj;
}

function only(o: Obj, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) fail(`${path}.${k}`, `unknown field, expected one of: ${allowed.join(', ')}`);
  }
}

/** A payload key path: a string that parses as one (Qdrant rejects the request otherwise). */
function keyPath(v: unknown, path: string): string {
  const key = str(v, path);
  if (parseJsonPath(key) === null) fail(path, `${invalidPathMessage(key)}${key === '' ? ' (a key must not be empty)' : ''}`);
  return key;
}

function num(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, 'expected a number');
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, 'expected a string');
  return v;
}

function geo(v: unknown, path: string): GeoPoint {
  const o = obj(v, path);
  only(o, ['lon', 'lat'], path);
  const lon = num(o.lon, `${path}.lon`);
  const lat = num(o.lat, `${path}.lat`);
  if (lon < -180 || lon > 180) fail(`${path}.lon`, 'must be within [-180, 180]');
  if (lat < -90 || lat > 90) fail(`${path}.lat`, 'must be within [-90, 90]');
  return { lon, lat };
}

function ring(v: unknown, path: string): { points: GeoPoint[] } {
  const o = obj(v, path);
  only(o, ['points'], path);
  if (!Array.isArray(o.points) || o.points.length < 4) fail(`${path}.points`, 'expected a closed ring of at least 4 points');
  const points = o.points.map((p, i) => geo(p, `${path}.points[${i}]`));
  const [a, b] = [points[0]!, points[points.length - 1]!];
  if (a.lon !== b.lon || a.lat !== b.lat) fail(`${path}.points`, 'the ring must be closed: first and last points equal');
  return { points };
}

const MATCH_KINDS = 'value, any, except, text, text_any, phrase, prefix';

function match(v: unknown, path: string): Match {
  const o = obj(v, path);
  const keys = Object.keys(o);
  if (keys.length !== 1) fail(path, `expected exactly one of: ${MATCH_KINDS}`);
  if ('value' in o) {
    const x = o.value;
    if (typeof x !== 'string' && typeof x !== 'boolean' && !(typeof x === 'number' && Number.isInteger(x))) {
      fail(`${path}.value`, 'expected a string, an integer or a boolean');
    }
    return { value: x };
  }
  const list = (k: 'any' | 'except'): (string | number)[] => {
    const a = o[k];
    if (!Array.isArray(a)) fail(`${path}.${k}`, 'expected an array of strings or integers');
    return a.map((x, i) => {
      if (typeof x !== 'string' && !(typeof x === 'number' && Number.isInteger(x))) {
        fail(`${path}.${k}[${i}]`, 'expected a string or an integer');
      }
      return x;
    });
  };
  if ('any' in o) return { any: list('any') };
  if ('except' in o) return { except: list('except') };
  if ('text' in o) return { text: str(o.text, `${path}.text`) };
  if ('text_any' in o) return { text_any: str(o.text_any, `${path}.text_any`) };
  if ('phrase' in o) return { phrase: str(o.phrase, `${path}.phrase`) };
  if ('prefix' in o) return { prefix: str(o.prefix, `${path}.prefix`) };
  return fail(`${path}.${keys[0]}`, `unknown match kind, expected one of: ${MATCH_KINDS}`);
}

function range(v: unknown, path: string): RangeCond {
  const o = obj(v, path);
  only(o, ['gt', 'gte', 'lt', 'lte'], path);
  const out: RangeCond = {};
  for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
    const x = o[k];
    if (x === undefined || x === null) continue;
    if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
    else if (typeof x === 'string' && !Number.isNaN(parseDatetime(x))) out[k] = x;
    else fail(`${path}.${k}`, 'expected a number or an RFC 3339 datetime');
  }
  return out;
}

function count(v: unknown, path: string): NonNullable<FieldCondition['values_count']> {
  const o = obj(v, path);
  only(o, ['gt', 'gte', 'lt', 'lte'], path);
  const out: NonNullable<FieldCondition['values_count']> = {};
  for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
    if (o[k] === undefined || o[k] === null) continue;
    const n = num(o[k], `${path}.${k}`);
    if (!Number.isInteger(n) || n < 0) fail(`${path}.${k}`, 'expected a non-negative integer');
    out[k] = n;
  }
  return out;
}

const FIELD_KEYS = ['key', 'match', 'range', 'geo_bounding_box', 'geo_radius', 'geo_polygon', 'values_count', 'is_empty', 'is_null'] as const;

function fieldCondition(o: Obj, path: string): FieldCondition {
  only(o, FIELD_KEYS, path);
  const key = keyPath(o.key, `${path}.key`);
  const c: FieldCondition = { key };
  if (o.match !== undefined && o.match !== null) c.match = match(o.match, `${path}.match`);
  if (o.range !== undefined && o.range !== null) c.range = range(o.range, `${path}.range`);
  if (o.geo_bounding_box !== undefined && o.geo_bounding_box !== null) {
    const b = obj(o.geo_bounding_box, `${path}.geo_bounding_box`);
    only(b, ['top_left', 'bottom_right'], `${path}.geo_bounding_box`);
    c.geo_bounding_box = {
      top_left: geo(b.top_left, `${path}.geo_bounding_box.top_left`),
      bottom_right: geo(b.bottom_right, `${path}.geo_bounding_box.bottom_right`),
    };
  }
  if (o.geo_radius !== undefined && o.geo_radius !== null) {
    const r = obj(o.geo_radius, `${path}.geo_radius`);
    only(r, ['center', 'radius'], `${path}.geo_radius`);
    const radius = num(r.radius, `${path}.geo_radius.radius`);
    if (radius < 0) fail(`${path}.geo_radius.radius`, 'must not be negative');
    c.geo_radius = { center: geo(r.center, `${path}.geo_radius.center`), radius };
  }
  if (o.geo_polygon !== undefined && o.geo_polygon !== null) {
    const p = obj(o.geo_polygon, `${path}.geo_polygon`);
    only(p, ['exterior', 'interiors'], `${path}.geo_polygon`);
    const interiors = p.interiors;
    if (interiors !== undefined && interiors !== null && !Array.isArray(interiors)) fail(`${path}.geo_polygon.interiors`, 'expected an array');
    c.geo_polygon = {
      exterior: ring(p.exterior, `${path}.geo_polygon.exterior`),
      interiors: (interiors ?? []).map((r: unknown, i: number) => ring(r, `${path}.geo_polygon.interiors[${i}]`)),
    };
  }
  if (o.values_count !== undefined && o.values_count !== null) c.values_count = count(o.values_count, `${path}.values_count`);
  for (const k of ['is_empty', 'is_null'] as const) {
    if (o[k] === undefined || o[k] === null) continue;
    if (typeof o[k] !== 'boolean') fail(`${path}.${k}`, 'expected a boolean');
    c[k] = o[k];
  }
  // A key with nothing to check reads, but breaks Qdrant's validation: a 422, in its words.
  if (Object.keys(c).length === 1) throw QuiverError.unprocessable(`Validation error in JSON body: [${path}: At least one field condition must be specified]`);
  return c;
}

function keyObject(v: unknown, path: string): { key: string } {
  const o = obj(v, path);
  only(o, ['key'], path);
  return { key: keyPath(o.key, `${path}.key`) };
}

function condition(v: unknown, path: string): Condition {
  const o = obj(v, path);
  if ('key' in o) return fieldCondition(o, path);
  if ('has_id' in o) {
    only(o, ['has_id'], path);
    if (!Array.isArray(o.has_id)) fail(`${path}.has_id`, 'expected an array of point ids');
    return {
      has_id: o.has_id.map((id, i) => {
        try {
          return parsePointId(id);
        } catch {
          return fail(`${path}.has_id[${i}]`, 'expected an unsigned integer or a UUID');
        }
      }),
    };
  }
  if ('slice' in o) {
    only(o, ['slice'], path);
    const s = obj(o.slice, `${path}.slice`);
    only(s, ['total', 'index'], `${path}.slice`);
    const u32 = (v: unknown, what: string, min: number): number => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > 0xffff_ffff) fail(`${path}.slice.${what}`, `expected an integer from ${min} to 4294967295`);
      return v;
    };
    const total = u32(s.total, 'total', 1);
    const index = u32(s.index, 'index', 0);
    // Both read, but the index must name one of the slices: Qdrant's validation, a 422.
    if (index >= total) throw QuiverError.unprocessable(`Validation error in JSON body: [${path}.slice.index: index ${index} must be less than total ${total}]`);
    return { slice: { total, index } };
  }
  if ('has_vector' in o) {
    only(o, ['has_vector'], path);
    return { has_vector: str(o.has_vector, `${path}.has_vector`) };
  }
  if ('is_empty' in o) {
    only(o, ['is_empty'], path);
    return { is_empty: keyObject(o.is_empty, `${path}.is_empty`) };
  }
  if ('is_null' in o) {
    only(o, ['is_null'], path);
    return { is_null: keyObject(o.is_null, `${path}.is_null`) };
  }
  if ('nested' in o) {
    only(o, ['nested'], path);
    const n = obj(o.nested, `${path}.nested`);
    only(n, ['key', 'filter'], `${path}.nested`);
    return { nested: { key: keyPath(n.key, `${path}.nested.key`), filter: parseFilterAt(n.filter, `${path}.nested.filter`) } };
  }
  if ('filter' in o) {
    only(o, ['filter'], path);
    return { filter: parseFilterAt(o.filter, `${path}.filter`) };
  }
  const keys = Object.keys(o);
  if (keys.length > 0 && keys.every((k) => CLAUSES.includes(k as (typeof CLAUSES)[number]))) return parseFilterAt(o, path);
  // Name the key that is wrong: in a bare nested Filter with a stray key, that is the stray one.
  const stray = keys.find((k) => !CLAUSES.includes(k as (typeof CLAUSES)[number]));
  return fail(path, `unknown condition${stray !== undefined ? ` '${stray}'` : ' (empty object)'}`);
}

const CLAUSES = ['must', 'should', 'must_not', 'min_should'] as const;

function clause(v: unknown, path: string): Condition[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map((c, i) => condition(c, `${path}[${i}]`));
  return [condition(v, path)];
}

export function parseFilterAt(v: unknown, path: string): Filter {
  const o = obj(v, path);
  only(o, CLAUSES, path);
  const f: Filter = {};
  const must = clause(o.must, `${path}.must`);
  const should = clause(o.should, `${path}.should`);
  const mustNot = clause(o.must_not, `${path}.must_not`);
  if (must) f.must = must;
  if (should) f.should = should;
  if (mustNot) f.must_not = mustNot;
  if (o.min_should !== undefined && o.min_should !== null) {
    const m = obj(o.min_should, `${path}.min_should`);
    only(m, ['conditions', 'min_count'], `${path}.min_should`);
    if (!Array.isArray(m.conditions)) fail(`${path}.min_should.conditions`, 'expected an array of conditions');
    const minCount = num(m.min_count, `${path}.min_should.min_count`);
    if (!Number.isInteger(minCount) || minCount < 0) fail(`${path}.min_should.min_count`, 'expected a non-negative integer');
    f.min_should = {
      conditions: m.conditions.map((c, i) => condition(c, `${path}.min_should.conditions[${i}]`)),
      min_count: minCount,
    };
  }
  return f;
}

/** The typed filter, or null when the request has none. */
export function parseFilter(v: unknown): Filter | null {
  if (v === undefined || v === null) return null;
  return parseFilterAt(v, 'filter');
}
