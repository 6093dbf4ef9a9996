// Selectors (with_payload, with_vectors, points, shard keys) and filters in REST form. The filter
// parser of the service checks the result, so a bad condition reads the same over both surfaces.

import { QuiverError } from '../../errors.js';
import type { WithPayload, WithVector } from '../../schemas/common.js';
import type { Timestamp__Output } from '../generated/google/protobuf/Timestamp.js';
import type { Condition__Output } from '../generated/qdrant/Condition.js';
import type { FieldCondition__Output } from '../generated/qdrant/FieldCondition.js';
import type { Filter__Output } from '../generated/qdrant/Filter.js';
import type { GeoLineString__Output } from '../generated/qdrant/GeoLineString.js';
import type { GeoPoint__Output } from '../generated/qdrant/GeoPoint.js';
import type { Match__Output } from '../generated/qdrant/Match.js';
import type { PointsSelector__Output } from '../generated/qdrant/PointsSelector.js';
import type { ShardKeySelector__Output } from '../generated/qdrant/ShardKeySelector.js';
import type { WithPayloadSelector__Output } from '../generated/qdrant/WithPayloadSelector.js';
import type { WithVectorsSelector__Output } from '../generated/qdrant/WithVectorsSelector.js';
import { num, opt, plain, type Json } from './common.js';
import { pointIdIn } from './values.js';

export function withPayloadIn(s: WithPayloadSelector__Output | undefined): WithPayload | undefined {
  switch (s?.selector_options) {
    case 'enable':
      return s.enable ?? false;
    case 'include':
      return { include: s.include?.fields ?? [] };
    case 'exclude':
      return { exclude: s.exclude?.fields ?? [] };
    default:
      return undefined;
  }
}

export function withVectorIn(s: WithVectorsSelector__Output | undefined): WithVector | undefined {
  switch (s?.selector_options) {
    case 'enable':
      return s.enable ?? false;
    case 'include':
      return s.include?.names ?? [];
    default:
      return undefined;
  }
}

/** A protobuf Timestamp as an RFC 3339 string, which is how REST filters carry datetimes. */
export function timestampIn(t: Timestamp__Output): string {
  return new Date(Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}

function matchIn(m: Match__Output): Json {
  switch (m.match_value) {
    case 'keyword':
      return { value: m.keyword };
    case 'integer':
      return { value: Number(m.integer) };
    case 'boolean':
      return { value: m.boolean };
    case 'keywords':
      return { any: m.keywords?.strings ?? [] };
    case 'integers':
      return { any: (m.integers?.integers ?? []).map(Number) };
    case 'except_keywords':
      return { except: m.except_keywords?.strings ?? [] };
    case 'except_integers':
      return { except: (m.except_integers?.integers ?? []).map(Number) };
    case 'text':
    case 'phrase':
    case 'text_any':
    case 'prefix':
      // The REST field names are the proto's: the filter parser checks them for both.
      return { [m.match_value]: m[m.match_value] };
    default:
      return {};
  }
}

// proto3 leaves zero-valued plain fields off the wire: a point on the equator has no `lat`.
const geoIn = (p: GeoPoint__Output | undefined): { lon: number; lat: number } => ({ lon: p?.lon ?? 0, lat: p?.lat ?? 0 });
const ringIn = (r: GeoLineString__Output | undefined): { points: { lon: number; lat: number }[] } => ({ points: (r?.points ?? []).map(geoIn) });

function fieldConditionIn(f: FieldCondition__Output): Json {
  const out: Json = { key: f.key ?? '' };
  if (f.match !== undefined) out.match = matchIn(f.match);
  if (f.range !== undefined) out.range = plain(f.range);
  if (f.datetime_range !== undefined) {
    if (f.range !== undefined) throw QuiverError.badInput(`Bad filter: condition on '${f.key ?? ''}' has both range and datetime_range`);
    const range: Json = {};
    for (const k of ['lt', 'gt', 'gte', 'lte'] as const) {
      const t = f.datetime_range[k];
      if (t !== undefined) range[k] = timestampIn(t);
    }
    out.range = range;
  }
  if (f.geo_bounding_box !== undefined) {
    out.geo_bounding_box = { top_left: geoIn(f.geo_bounding_box.top_left), bottom_right: geoIn(f.geo_bounding_box.bottom_right) };
  }
  if (f.geo_radius !== undefined) out.geo_radius = { center: geoIn(f.geo_radius.center), radius: f.geo_radius.radius ?? 0 };
  if (f.geo_polygon !== undefined) {
    out.geo_polygon = { exterior: ringIn(f.geo_polygon.exterior), interiors: f.geo_polygon.interiors.map(ringIn) };
  }
  if (f.values_count !== undefined) {
    const c = f.values_count;
    out.values_count = { ...opt('lt', num(c.lt)), ...opt('gt', num(c.gt)), ...opt('gte', num(c.gte)), ...opt('lte', num(c.lte)) };
  }
  if (f.is_empty !== undefined) out.is_empty = f.is_empty;
  if (f.is_null !== undefined) out.is_null = f.is_null;
  return out;
}

export function conditionIn(c: Condition__Output): Json {
  switch (c.condition_one_of) {
    case 'field':
      return fieldConditionIn(c.field ?? {});
    case 'is_empty':
      return { is_empty: { key: c.is_empty?.key ?? '' } };
    case 'is_null':
      return { is_null: { key: c.is_null?.key ?? '' } };
    case 'has_id':
      return { has_id: (c.has_id?.has_id ?? []).map(pointIdIn) };
    case 'has_vector':
      return { has_vector: c.has_vector?.has_vector ?? '' };
    case 'filter':
      return { filter: filterIn(c.filter) ?? {} };
    case 'nested':
      return { nested: { key: c.nested?.key ?? '', filter: filterIn(c.nested?.filter) ?? {} } };
    case 'slice':
      return { slice: { total: c.slice?.total ?? 0, index: c.slice?.index ?? 0 } };
    default:
      return {};
  }
}

/** A filter in REST form, or undefined when the message has none. */
export function filterIn(f: Filter__Output | undefined): Json | undefined {
  if (f === undefined) return undefined;
  const out: Json = {};
  if (f.must.length > 0) out.must = f.must.map(conditionIn);
  if (f.should.length > 0) out.should = f.should.map(conditionIn);
  if (f.must_not.length > 0) out.must_not = f.must_not.map(conditionIn);
  if (f.min_should !== undefined) {
    out.min_should = { conditions: f.min_should.conditions.map(conditionIn), min_count: Number(f.min_should.min_count ?? 0) };
  }
  return out;
}

/** Ids or a filter, as REST's points selector. A missing selector is refused as Qdrant does. */
export function pointsSelectorIn(s: PointsSelector__Output | undefined): { points: (number | string)[] } | { filter: Json } {
  if (s?.points_selector_one_of === 'points') return { points: (s.points?.ids ?? []).map(pointIdIn) };
  if (s?.points_selector_one_of === 'filter') return { filter: filterIn(s.filter) ?? {} };
  throw QuiverError.badInput('PointsSelector is missing: expected `points` or `filter`');
}

/** Like pointsSelectorIn, for payload operations whose selector may be absent (the service says what is missing). */
export function selectionIn(s: PointsSelector__Output | undefined): { points?: (number | string)[]; filter?: Json } {
  return s === undefined ? {} : pointsSelectorIn(s);
}

/** REST's shard_key: present exactly when the message names shard keys, so the service refuses it as for REST. */
export function shardKeyIn(s: ShardKeySelector__Output | undefined): { shard_key?: unknown } {
  return s === undefined ? {} : { shard_key: s.shard_keys.map((k) => k.keyword ?? Number(k.number)) };
}
